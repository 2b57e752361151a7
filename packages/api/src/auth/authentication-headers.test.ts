import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isAuthenticationHeader, withoutAuthenticationHeaders } from './authentication-headers.js';

const h = { names: ['x-remote-user', 'x-remote-group', 'x-remote-uid'], prefixes: ['x-remote-extra-'] };

describe('withoutAuthenticationHeaders (headerrequest.ClearAuthenticationHeaders)', () => {
  it('removes every named header and every header under a prefix, and keeps the rest in order', () => {
    const headers = {
      host: 'kevents',
      'x-remote-user': 'alice',
      'x-remote-group': ['a', 'b'],
      'x-remote-extra-scopes': 'x',
      'x-remote-extra-': 'empty key',
      'x-remote-users': 'not a name',
      accept: 'application/json',
    };
    const out = withoutAuthenticationHeaders(headers, h);
    expect(Object.keys(out)).toEqual(['host', 'x-remote-users', 'accept']);
    expect(headers['x-remote-user']).toBe('alice');
  });

  it('answers the same object when there is nothing to remove', () => {
    const headers = { host: 'kevents', authorization: 'Bearer t' };
    expect(withoutAuthenticationHeaders(headers, h)).toBe(headers);
    expect(withoutAuthenticationHeaders(headers, { names: [], prefixes: [] })).toBe(headers);
  });

  it('property: nothing it reads is left, everything else is kept', () => {
    const name = fc.oneof(
      fc.constantFrom(...h.names, 'x-remote-extra-a', 'x-remote', 'accept', 'x-remote-extra'),
      fc.stringMatching(/^[a-z-]{1,20}$/),
    );
    fc.assert(
      fc.property(fc.dictionary(name, fc.string()), (headers) => {
        const out = withoutAuthenticationHeaders(headers, h);
        for (const k of Object.keys(headers)) {
          if (isAuthenticationHeader(k, h)) expect(k in out).toBe(false);
          else expect(out[k]).toBe(headers[k]);
        }
        expect(Object.keys(out).every((k) => k in headers)).toBe(true);
      }),
    );
  });
});
