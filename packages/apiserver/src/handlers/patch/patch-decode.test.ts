import { describe, expect, it, jest } from '@jest/globals';
import { hasDuplicateKeys } from '../json-duplicates.js';
import { readPatch } from './apply.js';
import { countMembers, patchHasDuplicateKeys } from './patch-decode.js';

describe('patchHasDuplicateKeys', () => {
  it('answers as hasDuplicateKeys does', () => {
    for (const text of [
      '{}',
      '{"a":1}',
      '{"a":1,"a":2}',
      '{"a":[{"b":1,"b":2}],"c":{"d":[1,[2,{"e":3}]]}}',
      '{"a":[{"b":1},{"b":2}],"c":"\\"x\\":"}',
      '{"a":{"b":{"c":1}},"a":{"b":2}}',
    ]) {
      const patch = readPatch(text);
      expect([text, patchHasDuplicateKeys(patch)]).toEqual([text, hasDuplicateKeys(patch.text, patch.value)]);
    }
    expect(countMembers(JSON.parse('{"a":[{"b":1},{"c":{"d":null}}],"e":[[[]]]}'))).toBe(5);
  });

  it('never stacks the scalars of a large array', () => {
    // Pushing and popping each of the million scalars of a 3 MiB patch holds the event loop ~0.3 s.
    const text = `{"a":[${Array(100_000).fill('1').join(',')},{"b":1}]}`;
    const big = { text, value: JSON.parse(text) as unknown };
    const push = jest.spyOn(Array.prototype, 'push');
    let answer, pushes;
    try {
      answer = patchHasDuplicateKeys(big);
    } finally {
      // Counted before restoring, which clears the calls.
      pushes = push.mock.calls.length;
      push.mockRestore();
    }
    expect(answer).toBe(false);
    expect(pushes).toBeLessThan(10);
  });
});
