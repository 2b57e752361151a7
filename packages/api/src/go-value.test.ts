import { describe, expect, it } from '@jest/globals';
import { goFormatValue } from './go-value.js';

describe('goFormatValue (Go %v of decoded JSON)', () => {
  it('prints maps with sorted keys, lists, nil, strings bare and numbers as Go does', () => {
    expect(goFormatValue({ b: [1, 'x y', null, true], a: { d: 2.5, c: {} }, e: [] })).toBe(
      'map[a:map[c:map[] d:2.5] b:[1 x y <nil> true] e:[]]',
    );
    expect(goFormatValue({ big: 1e21, small: 0.00001, int: -7 })).toBe('map[big:1e+21 int:-7 small:1e-05]');
    expect(goFormatValue(null)).toBe('<nil>');
    expect(goFormatValue({ Z: 1, a: 2, é: 3, _: 4 })).toBe('map[Z:1 _:4 a:2 é:3]');
  });

  it('prints any nesting without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const text = goFormatValue(deep);
    expect(text.length).toBe(200_001);
    expect(text.startsWith('[[[')).toBe(true);
  });
});
