import { describe, expect, it } from '@jest/globals';
import { CreatedTexts } from './created-texts.js';

describe('CreatedTexts', () => {
  it('gives a text back only for the resourceVersion and uid it was kept with', () => {
    const texts = new CreatedTexts(4);
    texts.set(5, 'uid-a', 'A');
    expect(texts.peek(5, 'uid-a')).toBe('A');
    expect(texts.peek(5, 'uid-b')).toBeUndefined();
    expect(texts.peek(1, 'uid-a')).toBeUndefined();
    expect(texts.peek(9, 'uid-a')).toBeUndefined();
  });

  it('keeps one text a slot: a later resourceVersion of the same slot replaces it', () => {
    const texts = new CreatedTexts(4);
    texts.set(5, 'uid-a', 'A');
    texts.set(6, 'uid-b', 'B');
    texts.set(9, 'uid-c', 'C');
    expect(texts.peek(5, 'uid-a')).toBeUndefined();
    expect(texts.peek(9, 'uid-c')).toBe('C');
    expect(texts.peek(6, 'uid-b')).toBe('B');
    // Another create at a resourceVersion given again (a counter that went back) replaces it too.
    texts.set(6, 'uid-d', 'D');
    expect(texts.peek(6, 'uid-b')).toBeUndefined();
    expect(texts.peek(6, 'uid-d')).toBe('D');
  });
});
