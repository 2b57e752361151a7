import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { decodeIdToken, peekIssuerClaim } from './id-token.js';

const decode = (o: unknown): ReturnType<typeof decodeIdToken> => decodeIdToken(JSON.stringify(o));
const text = (payload: string): string => {
  try {
    decodeIdToken(payload);
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
};

describe('decodeIdToken (go-oidc v2.3.0 idToken, Go encoding/json)', () => {
  it('reads aud as a string, an array of strings, or null as [""]', () => {
    expect(decode({ aud: 'a' }).aud).toEqual(['a']);
    expect(decode({ aud: ['a', 'b'] }).aud).toEqual(['a', 'b']);
    expect(decode({ aud: ['a', null] }).aud).toEqual(['a', '']);
    expect(decode({ aud: null }).aud).toEqual(['']);
    expect(decode({}).aud).toEqual([]);
  });

  it('fails an aud that is not a string or an array of strings', () => {
    expect(text('{"aud":["kevents",5]}')).toBe(
      'json: cannot unmarshal number into Go struct field idToken.aud of type string',
    );
    expect(text('{"aud":["kevents",{}]}')).toBe(
      'json: cannot unmarshal object into Go struct field idToken.aud of type string',
    );
    expect(text('{"aud":5}')).toBe('json: cannot unmarshal number into Go struct field idToken.aud of type []string');
    expect(text('{"aud":true}')).toBe('json: cannot unmarshal bool into Go struct field idToken.aud of type []string');
  });

  it('matches member names case-insensitively, the last one winning', () => {
    expect(decode({ aud: 'kevents', AUD: 'other' }).aud).toEqual(['other']);
    expect(decode({ Aud: 'other', aud: 'kevents' }).aud).toEqual(['kevents']);
    expect(decode({ iss: 'https://a', ISS: 'https://b' }).iss).toBe('https://b');
    expect(decode({ Sub: 'x' }).sub).toBe('x');
    // Go folds U+017F (long s) to S and U+212A (Kelvin) to K.
    expect(decode({ '\u017fub': 'y' }).sub).toBe('y');
    expect(decode({ nonce: 'n', NONCE: null }).nonce).toBe('n');
  });

  it('fails string claims of another type, after reading the whole payload', () => {
    expect(text('{"sub":42}')).toBe('json: cannot unmarshal number into Go struct field idToken.sub of type string');
    expect(text('{"iss":["x"]}')).toBe('json: cannot unmarshal array into Go struct field idToken.iss of type string');
    expect(text('{"nonce":{}}')).toBe(
      'json: cannot unmarshal object into Go struct field idToken.nonce of type string',
    );
    expect(text('{"at_hash":false}')).toBe(
      'json: cannot unmarshal bool into Go struct field idToken.at_hash of type string',
    );
    // A saved type error is reported after the rest was read; an aud or time error ends at once.
    expect(text('{"sub":1,"nonce":2}')).toBe(
      'json: cannot unmarshal number into Go struct field idToken.sub of type string',
    );
    expect(text('{"sub":1,"exp":true}')).toBe(
      'json: cannot unmarshal bool into Go struct field idToken.exp of type json.Number',
    );
  });

  it('reads _claim_names and _claim_sources as Go maps', () => {
    const t = decode({
      _claim_names: { groups: 'src1' },
      _claim_sources: { src1: { Endpoint: 'https://e', access_token: 't', other: 1 } },
    });
    expect([...t.claimNames!]).toEqual([['groups', 'src1']]);
    expect([...t.claimSources!]).toEqual([['src1', { endpoint: 'https://e', accessToken: 't' }]]);
    expect(decode({ _claim_names: null }).claimNames).toBeUndefined();
    // Go decodes into the map it already has: two members merge.
    expect([...decode({ _claim_names: { a: 'x' }, _CLAIM_NAMES: { b: 'y' } }).claimNames!]).toEqual([
      ['a', 'x'],
      ['b', 'y'],
    ]);
    expect(text('{"_claim_names":"x"}')).toBe(
      'json: cannot unmarshal string into Go struct field idToken._claim_names of type map[string]string',
    );
    expect(text('{"_claim_names":{"groups":5}}')).toBe(
      'json: cannot unmarshal number into Go struct field idToken._claim_names of type string',
    );
    expect(text('{"_claim_sources":{"s":"x"}}')).toBe(
      'json: cannot unmarshal string into Go struct field idToken._claim_sources of type oidc.claimSource',
    );
    expect(text('{"_claim_sources":{"s":{"endpoint":1}}}')).toBe(
      'json: cannot unmarshal number into Go struct field claimSource._claim_sources.endpoint of type string',
    );
  });

  it('ignores every other member, whatever its type', () => {
    expect(text('{"groups":5,"email":{},"name":[1]}')).toBe('ok');
  });

  it('property: any JSON object decodes or fails with a Go error, never a crash, and peek agrees on iss', () => {
    const key = fc.constantFrom('iss', 'ISS', 'Iss', 'sub', 'aud', 'AUD', 'nonce', 'at_hash', 'x', 'exp', 'nbf');
    const value = fc.oneof(
      fc.string(),
      fc.constant(null),
      fc.integer(),
      fc.boolean(),
      fc.array(fc.oneof(fc.string(), fc.constant(null), fc.integer()), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.string(), fc.integer()), { maxKeys: 2 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 8 }), (entries) => {
        const payload = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
        let decoded: ReturnType<typeof decodeIdToken> | undefined;
        try {
          decoded = decodeIdToken(payload);
        } catch (e) {
          expect((e as Error).message).toMatch(/^(json: |strconv\.ParseFloat: )/);
        }
        const issMembers = entries.filter(([k]) => k.toUpperCase() === 'ISS');
        const bad = issMembers.some(([, v]) => v !== null && typeof v !== 'string');
        const strings = issMembers.filter(([, v]) => typeof v === 'string');
        const peeked = peekIssuerClaim(payload);
        if (bad || strings.length === 0) expect(peeked).toBeUndefined();
        else expect(peeked).toBe(strings[strings.length - 1]![1]);
        if (decoded && peeked !== undefined) expect(decoded.iss).toBe(peeked);
      }),
      { numRuns: 2000 },
    );
  });
});
