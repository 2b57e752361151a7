import { describe, expect, it } from '@jest/globals';
import { bearerToken } from './bearer-token.js';

describe('bearerToken', () => {
  it('reads the token as kube-apiserver does (strings.Fields, scheme case-insensitive)', () => {
    const cases: [string | string[] | undefined, string | undefined][] = [
      ['Bearer abc.def.ghi', 'abc.def.ghi'],
      ['bearer abc', 'abc'],
      ['BEARER abc', 'abc'],
      ['Bearer  abc', 'abc'],
      ['Bearer\tabc', 'abc'],
      ['  Bearer abc  ', 'abc'],
      ['Bearer abc extra', 'abc'],
      [['Bearer first', 'Bearer second'], 'first'],
      ['Bearer', undefined],
      ['Bearer ', undefined],
      ['Bearerabc', undefined],
      ['Basic YTpi', undefined],
      ['', undefined],
      [undefined, undefined],
    ];
    for (const [header, token] of cases) expect([header, bearerToken(header)]).toEqual([header, token]);
  });
});
