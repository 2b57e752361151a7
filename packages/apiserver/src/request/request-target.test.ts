import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { isPlainTarget, parseRequestTarget } from './request-target.js';

const view = (url: string): [string, readonly string[], string, number | undefined] => {
  const t = parseRequestTarget(url);
  return [t.path, t.segments, t.routeUrl, t.error?.code];
};

describe('parseRequestTarget', () => {
  it('keeps a plain origin-form target as it is', () => {
    expect(view('/api/v1/namespaces/a/events?limit=1')).toEqual([
      '/api/v1/namespaces/a/events',
      ['api', 'v1', 'namespaces', 'a', 'events'],
      '/api/v1/namespaces/a/events?limit=1',
      undefined,
    ]);
    expect(view('/')).toEqual(['/', [], '/', undefined]);
    expect(view('/?x=1')).toEqual(['/', [], '/?x=1', undefined]);
  });

  it('reduces the absolute form to its path (scheme case-insensitive, authority dropped)', () => {
    expect(view('https://h:6443/metrics?x#y')).toEqual(['/metrics', ['metrics'], '/metrics?x#y', undefined]);
    expect(view('HTTP://user@h')).toEqual(['/', [], '/', undefined]);
    expect(view('http://h?a/b')).toEqual(['/', [], '/?a/b', undefined]);
    expect(view('http:/metrics')).toEqual(['/metrics', ['metrics'], '/metrics', undefined]);
  });

  it('treats # as a character of the path, and splits the query at the first ?', () => {
    expect(view('/a/#x&dryRun=All')).toEqual([
      '/a/#x&dryRun=All',
      ['a', '#x&dryRun=All'],
      '/a/%23x%26dryRun%3DAll',
      undefined,
    ]);
    expect(view('/a/b?c#d?e')).toEqual(['/a/b', ['a', 'b'], '/a/b?c#d?e', undefined]);
  });

  it("decodes the whole path before splitting it, as Go's URL.Path", () => {
    expect(view('/%6detrics')).toEqual(['/metrics', ['metrics'], '/metrics', undefined]);
    expect(view('/a%2Fb/c')).toEqual(['/a/b/c', ['a', 'b', 'c'], '/a/b/c', undefined]);
    expect(view('/a%25b')).toEqual(['/a%b', ['a%b'], '/a%25b', undefined]);
    expect(view('/caf%C3%A9')).toEqual(['/café', ['café'], '/caf%C3%A9', undefined]);
  });

  it('drops one trailing slash; refuses empty segments with 404', () => {
    expect(view('/metrics/')).toEqual(['/metrics', ['metrics'], '/metrics', undefined]);
    expect(view('//metrics')[3]).toBe(404);
    expect(view('/a//b')[3]).toBe(404);
    expect(view('/a//')[3]).toBe(404);
    expect(view('/a%2F/b')[3]).toBe(404);
  });

  it("refuses malformed targets with 400 and Go's messages", () => {
    expect(parseRequestTarget('/a%zz').error?.status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'invalid URL escape "%zz"',
    });
    expect(parseRequestTarget('/a%4').error?.status.message).toBe('invalid URL escape "%4"');
    expect(parseRequestTarget('/a%ff').error?.code).toBe(400);
    expect(parseRequestTarget('*').error?.code).toBe(400);
    expect(parseRequestTarget('').error?.code).toBe(400);
    expect(parseRequestTarget('a/b').error?.code).toBe(400);
    expect(parseRequestTarget('/a b').error?.code).toBe(400);
    expect(parseRequestTarget('/é').error?.code).toBe(400);
  });

  it("reads a scheme as Go's getScheme does: a letter, then letters, digits, +, - and .", () => {
    expect(view('h2+x.y-z://h/metrics')).toEqual(['/metrics', ['metrics'], '/metrics', undefined]);
    expect(view('HTTPS://h:1/a%2Fb?c')).toEqual(['/a/b', ['a', 'b'], '/a/b?c', undefined]);
    expect(view('h:/a')).toEqual(['/a', ['a'], '/a', undefined]);
    expect(view('http://h/')).toEqual(['/', [], '/', undefined]);
    for (const refused of ['2h://h/x', ':/x', 'a:?x', 'http:', 'http:x'])
      expect(parseRequestTarget(refused).error?.status.message).toBe(
        `invalid request target ${JSON.stringify(refused)}`,
      );
  });

  it('takes the slow path for a trailing slash before the query, and keeps printable ASCII on the fast one', () => {
    expect(view('/a/?x')).toEqual(['/a', ['a'], '/a?x', undefined]);
    expect(view('/a%2F?x')).toEqual(['/a', ['a'], '/a?x', undefined]);
    expect(view('/a?')).toEqual(['/a', ['a'], '/a?', undefined]);
    expect(view('/a!~')).toEqual(['/a!~', ['a!~'], '/a!~', undefined]);
    expect(view('/%3F')).toEqual(['/?', ['?'], '/%3F', undefined]);
    expect(parseRequestTarget('/a\x7f').error?.status.message).toBe(
      'invalid request target: only printable ASCII is allowed',
    );
    expect(view('/a//?x')[3]).toBe(404);
  });

  it('reads hex digits of either case and refuses the characters around them', () => {
    expect(view('/%4a%4A%30%39%61%66%41%46')).toEqual(['/JJ09afAF', ['JJ09afAF'], '/JJ09afAF', undefined]);
    for (const bad of ['%', '%4g', '%4G', '%3:', '%3/', '%`0', '%@0', '%G0', '%g0'])
      expect(parseRequestTarget(`/a${bad}`).error?.status.message).toBe(
        `invalid URL escape ${JSON.stringify(bad.slice(0, 3))}`,
      );
  });

  const targetText = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc
      .array(
        fc.oneof(
          fc.constantFrom('%', '%2F', '%23', '%25', '#', '?', '/', '//', 'http://h', 'a', '..', '%C3%A9', '%e9'),
          fc.string({ maxLength: 3 }),
        ),
        { maxLength: 12 },
      )
      .map((xs) => xs.join('')),
  );

  it('never throws; a read target is canonical and reads back the same from its route URL', () => {
    fc.assert(
      fc.property(targetText, (url) => {
        const t = parseRequestTarget(url);
        if (t.error) {
          expect([400, 404]).toContain(t.error.code);
          return;
        }
        expect(t.path).toBe(`/${t.segments.join('/')}`);
        for (const s of t.segments) {
          expect(s).not.toBe('');
          expect(s).not.toContain('/');
        }
        const again = parseRequestTarget(t.routeUrl);
        expect([again.path, again.segments, again.error]).toEqual([t.path, t.segments, undefined]);
      }),
      { numRuns: 3000 },
    );
  });

  it('any segments, encoded as clients encode them, read back as they were', () => {
    const seg = fc.string({ minLength: 1, maxLength: 8, unit: 'grapheme' }).filter((s) => !s.includes('/'));
    fc.assert(
      fc.property(fc.array(seg, { maxLength: 6 }), (segs) => {
        const t = parseRequestTarget(`/${segs.map(encodeURIComponent).join('/')}?q`);
        expect(t.segments).toEqual(segs);
      }),
      { numRuns: 1000 },
    );
  });

  it('takes the plain path for exactly the targets the character loop it replaced took', () => {
    const reference = (url: string): boolean => {
      if (url.charCodeAt(0) !== 47) return false;
      let prevSlash = true;
      for (let i = 1; i < url.length; i++) {
        const c = url.charCodeAt(i);
        if (c === 63) return !prevSlash || i === 1;
        if (c === 47) {
          if (prevSlash) return false;
          prevSlash = true;
          continue;
        }
        if (c <= 32 || c >= 127 || c === 37 || c === 35) return false;
        prevSlash = false;
      }
      return !prevSlash || url.length === 1;
    };
    const target = fc.oneof(
      targetText,
      fc
        .array(fc.constantFrom('/', 'a', 'v1', '?', '%', '#', ' ', '\x7f', 'é', '\ud800', '~', '//', 'x?y/'), {
          maxLength: 10,
        })
        .map((xs) => xs.join('')),
    );
    fc.assert(
      fc.property(target, (url) => expect(isPlainTarget(url)).toBe(reference(url))),
      { numRuns: 5000 },
    );
  });
});
