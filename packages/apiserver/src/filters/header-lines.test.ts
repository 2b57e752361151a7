import { describe, expect, it } from '@jest/globals';
import { headerLines } from './header-lines.js';

describe('headerLines', () => {
  it('reads rawHeaders in pairs, names lower-cased, repeats apart, a dangling name dropped', () => {
    expect(
      headerLines({
        rawHeaders: ['X-Remote-Group', 'a', 'x-remote-group', 'b', 'Accept', 'x/y', 'Dangling'],
        headers: { ignored: 'yes' },
      }),
    ).toEqual([
      ['x-remote-group', 'a'],
      ['x-remote-group', 'b'],
      ['accept', 'x/y'],
    ]);
  });

  it('reads the headers object when there are no raw lines: arrays as one line per value, undefined skipped', () => {
    const headers = { 'x-remote-group': ['a', 'b'], accept: 'x/y', gone: undefined };
    const want = [
      ['x-remote-group', 'a'],
      ['x-remote-group', 'b'],
      ['accept', 'x/y'],
    ];
    expect(headerLines({ headers })).toEqual(want);
    expect(headerLines({ rawHeaders: [], headers })).toEqual(want);
    expect(headerLines({ headers: {} })).toEqual([]);
  });
});
