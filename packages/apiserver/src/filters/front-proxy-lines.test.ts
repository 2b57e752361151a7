import { describe, expect, it } from '@jest/globals';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import fc from 'fast-check';
import type { AuthenticationHeaders } from '@kevents/api';
import { frontProxyLines, notCommaJoined } from './authentication.js';
import { headerLines } from './header-lines.js';

/** A request as Node's HTTP/1.1 parser hands it: `headers` computed from the lines on first read. */
function parsed(lines: readonly (readonly [string, string])[]): IncomingMessage {
  const m = new IncomingMessage(new Socket());
  const raw = lines.flat();
  (m as unknown as { _addHeaderLines(h: string[], n: number): void })._addHeaderLines(raw, raw.length);
  return m;
}

/** The reference reading: every line of a front-proxy header, in order, from `rawHeaders`. */
function reference(m: IncomingMessage, h: AuthenticationHeaders): Record<string, string[]> | undefined {
  let out: Record<string, string[]> | undefined;
  for (const [name, value] of headerLines(m)) {
    if (!h.names.includes(name) && !h.prefixes.some((p) => name.startsWith(p))) continue;
    ((out ??= {})[name] ??= []).push(value);
  }
  return out;
}

const defaults: AuthenticationHeaders = {
  names: ['x-remote-user', 'x-remote-group'],
  prefixes: ['x-remote-extra-'],
};
/** Front-proxy headers named like headers Node does not join with `, ` (`From` drops a repeat). */
const unusual: AuthenticationHeaders = { names: ['from', 'x-remote-group', 'cookie'], prefixes: ['content-'] };

const names = [
  'X-Remote-User',
  'x-remote-user',
  'X-Remote-Group',
  'X-Remote-Extra-Scopes',
  'x-remote-extra-a%62',
  'X-Remote-Extra-ab',
  'X-Remote-Users',
  'From',
  'Cookie',
  'Content-Type',
  'Content-Language',
  'Authorization',
  'Host',
  'Accept',
];
const values = fc.oneof(
  fc.constantFrom('', 'alice', 'a, b', 'a,b', ', ', 'a,', ' b', 'system:masters'),
  fc.string({ maxLength: 6 }).filter((s) => s.trim() === s && !/[\r\n\0]/.test(s)),
);
const lines = fc.array(fc.tuple(fc.constantFrom(...names), values), { maxLength: 10 });

describe('frontProxyLines', () => {
  it('reads one value per header line, as the header lines say, whatever Node joined or dropped', () => {
    for (const h of [defaults, unusual])
      fc.assert(
        fc.property(lines, (l) => {
          const m = parsed(l);
          expect(frontProxyLines(m, h)).toEqual(reference(m, h));
        }),
        { numRuns: 2000 },
      );
  });

  it('keeps a value holding ", " whole when it came in one line, and apart when in two', () => {
    expect(frontProxyLines(parsed([['X-Remote-Group', 'a, b']]), defaults)).toEqual({ 'x-remote-group': ['a, b'] });
    expect(
      frontProxyLines(
        parsed([
          ['X-Remote-Group', 'a'],
          ['X-Remote-Group', 'b'],
        ]),
        defaults,
      ),
    ).toEqual({ 'x-remote-group': ['a', 'b'] });
    expect(
      frontProxyLines(
        parsed([
          ['X-Remote-User', ''],
          ['X-Remote-User', 'bob'],
        ]),
        defaults,
      ),
    ).toEqual({ 'x-remote-user': ['', 'bob'] });
    expect(
      frontProxyLines(
        parsed([
          ['From', ''],
          ['From', 'bob'],
        ]),
        unusual,
      ),
    ).toEqual({ from: ['', 'bob'] });
    expect(frontProxyLines(parsed([['Host', 'x']]), defaults)).toBeUndefined();
  });

  it('lists every name Node does not join with ", " (HTTP/1.1)', () => {
    const joined = (name: string): boolean => {
      const m = parsed([
        [name, 'a'],
        [name, 'b'],
      ]);
      return m.headers[name.toLowerCase()] === 'a, b';
    };
    // The names Node's HTTP/1.1 parser knows (`matchKnownFields`), and any other token: each is
    // joined with ", " or listed.
    const known = [
      ...['age', 'host', 'from', 'etag', 'date', 'vary', 'server', 'cookie', 'origin', 'expect', 'accept'],
      ...['referer', 'expires', 'upgrade', 'location', 'if-match', 'user-agent', 'set-cookie', 'connection'],
      ...['retry-after', 'content-type', 'max-forwards', 'authorization', 'last-modified', 'cache-control'],
      ...['if-none-match', 'content-length', 'accept-encoding', 'accept-language', 'x-forwarded-for'],
      ...['content-encoding', 'x-forwarded-host', 'if-modified-since', 'transfer-encoding', 'x-forwarded-proto'],
      ...['proxy-authorization', 'if-unmodified-since'],
    ];
    for (const n of known) expect([n, joined(n) || notCommaJoined.has(n)]).toEqual([n, true]);
    for (const n of ['age', 'from', 'authorization', 'cookie', 'set-cookie']) expect(joined(n)).toBe(false);
    const tchar = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-!#$%&'*+.^_`|~".split(''));
    fc.assert(
      fc.property(fc.array(tchar, { minLength: 1, maxLength: 20 }), (chars) => {
        const name = chars.join('');
        if (!notCommaJoined.has(name)) expect(joined(name)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    for (const n of ['accept', 'x-forwarded-for', 'vary', 'x-remote-user', 'x-remote-extra-scopes'])
      expect(joined(n)).toBe(true);
  });
});
