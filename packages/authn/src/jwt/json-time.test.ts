import { describe, expect, it } from '@jest/globals';
import { goInternalTime, goTime } from '../go-format.js';
import { goSecondsToUnixMs, idTokenTimes, unixMsToGoMs } from './json-time.js';

/**
 * What go-oidc's `idToken` decoding (`jsonTime.UnmarshalJSON`, Go's encoding/json, `int64(f)` on
 * amd64, `time.Unix`) gives for each payload, and the `Expiry.Before(now)` /
 * `now.Add(time.Minute).Before(nbf)` decisions at now = 1700000000 — recorded from Go.
 */
const fromGo: {
  payload: string;
  err?: string;
  exp?: string;
  expired?: boolean;
  nbf?: string;
  nbfRejected?: boolean;
}[] = [
  { exp: '292277026596-12-04 15:30:08 +0000 UTC', expired: true, payload: '{"exp":1e300}' },
  { exp: '292277026596-12-04 15:30:08 +0000 UTC', expired: true, payload: '{"exp":-1e300}' },
  { exp: '292277026596-12-04 15:30:07 +0000 UTC', expired: true, payload: '{"exp":9223372036854775807}' },
  { exp: '292277026596-12-04 15:30:08 +0000 UTC', expired: true, payload: '{"exp":9223372036854775808}' },
  { exp: '292277024627-12-06 15:30:07 +0000 UTC', expired: false, payload: '{"exp":9223371974719179007}' },
  { exp: '292277024627-12-06 15:30:08 +0000 UTC', expired: true, payload: '{"exp":9223371974719179008}' },
  { exp: '291536396232-08-31 11:33:20 +0000 UTC', expired: false, payload: '{"exp":9.2e18}' },
  { err: 'strconv.ParseFloat: parsing "1e309": value out of range', payload: '{"exp":1e309}' },
  { err: 'strconv.ParseFloat: parsing "": invalid syntax', payload: '{"exp":null}' },
  { err: 'json: cannot unmarshal bool into Go struct field idToken.exp of type json.Number', payload: '{"exp":true}' },
  { exp: '2027-01-15 08:00:00 +0000 UTC', expired: false, payload: '{"exp":"1800000000"}' },
  { err: 'json: invalid number literal, trying to unmarshal "\\"abc\\"" into Number', payload: '{"exp":"abc"}' },
  {
    err: 'json: cannot unmarshal object into Go struct field idToken.exp of type json.Number',
    payload: '{"exp":{"a":[1,"}"]}}',
  },
  { err: 'json: cannot unmarshal array into Go struct field idToken.exp of type json.Number', payload: '{"exp":[]}' },
  { exp: '2027-01-15 08:00:00 +0000 UTC', expired: false, payload: '{"exp":1.8e9}' },
  { exp: '2027-01-15 08:00:00 +0000 UTC', expired: false, payload: '{"exp":1800000000.9}' },
  { exp: '1970-01-01 00:00:00 +0000 UTC', expired: true, payload: '{"exp":-0}' },
  { exp: '1970-01-01 00:00:00 +0000 UTC', expired: true, payload: '{"exp":1e-400}' },
  { exp: '0001-01-01 00:00:00 +0000 UTC', expired: true, payload: '{}' },
  { exp: '2027-01-15 08:00:00 +0000 UTC', expired: false, payload: '{"EXP":1800000000}' },
  { exp: '1970-01-01 00:00:01 +0000 UTC', expired: true, payload: '{"exp":1800000000,"Exp":1}' },
  { err: 'json: cannot unmarshal bool into Go struct field idToken.iat of type json.Number', payload: '{"iat":true}' },
  { exp: '2027-01-15 08:00:00 +0000 UTC', expired: false, payload: '{"nbf":null,"exp":1800000000}' },
  { err: 'json: invalid number literal, trying to unmarshal "\\"x\\"" into Number', payload: '{"nbf":"x"}' },
  { exp: '0000-12-31 23:59:59 +0000 UTC', expired: true, payload: '{"exp":-62135596801}' },
  { exp: '292277026596-12-04 15:30:08 +0000 UTC', expired: true, payload: '{"exp":-9223372036854775808}' },
  { exp: '10000-01-01 00:00:00 +0000 UTC', expired: false, payload: '{"exp":253402300800}' },
  {
    exp: '2027-01-15 08:00:00 +0000 UTC',
    expired: false,
    nbf: '292277026596-12-04 15:30:08 +0000 UTC',
    nbfRejected: false,
    payload: '{"exp":1800000000, "nbf":1e300}',
  },
  {
    exp: '2027-01-15 08:00:00 +0000 UTC',
    expired: false,
    nbf: '285198648531-04-21 16:00:00 +0000 UTC',
    nbfRejected: true,
    payload: '{"exp":1800000000, "nbf":9e18}',
  },
  { exp: '292277026596-12-04 15:30:08 +0000 UTC', expired: true, payload: '{"exp":"1e300"}' },
  { err: 'json: invalid number literal, trying to unmarshal "\\" 5\\"" into Number', payload: '{"exp":" 5"}' },
  { err: 'json: invalid number literal, trying to unmarshal "\\"\\"" into Number', payload: '{"exp":""}' },
  { exp: '2023-11-14 22:13:20 +0000 UTC', expired: false, payload: '{"exp":1700000000}' },
  { exp: '2023-11-14 22:13:19 +0000 UTC', expired: true, payload: '{"exp":1699999999}' },
  {
    exp: '2027-01-15 08:00:00 +0000 UTC',
    expired: false,
    nbf: '2023-11-14 22:14:20 +0000 UTC',
    nbfRejected: false,
    payload: '{"exp":1800000000,"nbf":1700000060}',
  },
  {
    exp: '2027-01-15 08:00:00 +0000 UTC',
    expired: false,
    nbf: '2023-11-14 22:14:21 +0000 UTC',
    nbfRejected: true,
    payload: '{"exp":1800000000,"nbf":1700000061}',
  },
  { exp: '2027-01-15 08:00:00 +0000 UTC', expired: false, payload: '{"exp":1800000000,"iat":1e300}' },
  {
    err: 'json: invalid number literal, trying to unmarshal "\\"no\\"" into Number',
    payload: '{"exp":1800000000,"iat":"no"}',
  },
  { exp: '1969-12-31 23:59:59 +0000 UTC', expired: true, payload: '{"exp":-1}' },
  { exp: '292277026596-12-04 15:30:08 +0000 UTC', expired: true, payload: '{"exp":99999999999999999999}' },
  { exp: '292277026596-12-04 15:30:08 +0000 UTC', expired: true, payload: '{"exp":-99999999999999999999}' },
  { exp: '1970-01-01 00:00:01 +0000 UTC', expired: true, payload: '{"exp":1.5}' },
  { exp: '1969-12-31 23:59:59 +0000 UTC', expired: true, payload: '{"exp":-1.5}' },
  { exp: '1970-01-01 00:00:18 +0000 UTC', expired: true, payload: '{"exp":"\\u0031\\u0038"}' },
  { err: 'strconv.ParseFloat: parsing "": invalid syntax', payload: '{"iat":null,"exp":1800000000}' },
];

describe('go-oidc time claims', () => {
  const nowGoMs = unixMsToGoMs(1_700_000_000_000);
  it.each(fromGo)('$payload', (c) => {
    if (c.err !== undefined) {
      expect(() => idTokenTimes(c.payload)).toThrow(c.err);
      return;
    }
    const t = idTokenTimes(c.payload);
    expect(goInternalTime(t.exp)).toBe(c.exp);
    expect(t.exp * 1000n < nowGoMs).toBe(c.expired);
    if (c.nbf === undefined) expect(t.nbf).toBeUndefined();
    else {
      expect(goInternalTime(t.nbf!)).toBe(c.nbf);
      expect(nowGoMs + 60_000n < t.nbf! * 1000n).toBe(c.nbfRejected);
    }
  });

  it('matches a folded key (ıat is IAT to Go) and reports whether exp is present', () => {
    expect(() => idTokenTimes('{"\u0131at":true}')).toThrow('idToken.iat');
    expect(idTokenTimes('{"iss":"x"}').expPresent).toBe(false);
    expect(idTokenTimes('{"Exp":5}').expPresent).toBe(true);
  });

  it('converts to Unix milliseconds and back', () => {
    const t = idTokenTimes('{"exp":1800000000}');
    expect(goSecondsToUnixMs(t.exp)).toBe(1_800_000_000_000);
    expect(goTime(1_800_000_000_250)).toBe('2027-01-15 08:00:00.25 +0000 UTC');
    expect(goTime(-1)).toBe('1969-12-31 23:59:59.999 +0000 UTC');
  });
});
