import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ApiError } from '../errors/api-error.js';
import { parseAccept } from './accept.js';
import { negotiateOutput, negotiateStatus, negotiateWatch } from './negotiate.js';

const refusal = (f: () => unknown): ApiError => {
  try {
    f();
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('not refused');
};

const chosen = (accept: string | undefined): unknown => {
  const n = negotiateOutput(accept);
  return { mediaType: n.mediaType, ...n.representation, ...(n.pretty ? { pretty: true } : {}) };
};

describe('parseAccept (goautoneg, checked against Go on 20,005 headers)', () => {
  it('sorts by q, then exact types before wildcards, stably as Go’s insertion sort', () => {
    const order = (h: string): string[] => parseAccept(h).map((c) => `${c.type}/${c.subType}`);
    expect(order('application/json;q=0.5, */*;q=0.9, text/*')).toEqual(['text/*', '*/*', 'application/json']);
    expect(order('*/*, application/yaml, application/json')).toEqual(['application/yaml', 'application/json', '*/*']);
    // goautoneg's Less is not an order: an exact type of equal q sorts before a wildcard whatever came first.
    expect(order('*/*;q=0.1, application/json;q=0.1')).toEqual(['application/json', '*/*']);
    expect(order('a/b;q=0.1,*/*;q=0.9,c/*;q=0.5,d/e')).toEqual(['d/e', 'c/*', '*/*', 'a/b']);
  });

  it('sorts more than 12 clauses as Go’s sort.Sort does (pdqsort), under goautoneg’s non-strict Less', () => {
    // Go 1.19's answers (tools/accept-oracle); Go 1.24 changed pdqsort's pattern breaker only.
    const ids = (h: string): string =>
      parseAccept(h, 'go1.19')
        .map((c) => c.params.get('i'))
        .join(',');
    const tag = (h: string): string =>
      h
        .split(',')
        .map((c, i) => `${c};i=${i}`)
        .join(',');
    const a = tag('*/*,a/b,a/*,text/*,c/d,*/*,c/d,a/*,c/d,c/d,a/b,a/*,text/*,a/b,text/*,a/b,a/*;q=0.1,*/*,*/*,text/*');
    expect(ids(a)).toBe('15,10,9,13,4,1,6,8,19,7,11,12,3,14,2,16,5,0,18,17');
    const b = tag('*/*,a/*,a/b,c/d,c/d,text/*,c/d,a/*,text/*,a/*,a/b,a/*,a/b,text/*,*/*,a/*,text/*,c/d,text/*,a/b');
    expect(ids(b)).toBe('10,19,2,3,4,17,6,12,5,9,8,11,7,13,15,16,18,1,14,0');
    // A q=0.1 clause stays among the wildcards of q=1: no strict order would put it there.
    expect(parseAccept(a, 'go1.19')[15]!.q).toBe(Math.fround(0.1));
    expect(parseAccept(a).map((c) => c.params.get('i'))).toEqual(
      parseAccept(a, 'go1.24').map((c) => c.params.get('i')),
    );
    expect(parseAccept(',*'.repeat(8000))).toHaveLength(8000);
  });

  it('reads types, parameters and q as goautoneg does', () => {
    expect(parseAccept('application')).toEqual([]);
    expect(parseAccept('*')[0]).toMatchObject({ type: '*', subType: '*' });
    expect(parseAccept('*/')[0]).toMatchObject({ type: '*', subType: '*' });
    expect(parseAccept('a/b/c')).toEqual([]);
    expect(parseAccept('a/b/')[0]).toMatchObject({ type: 'a', subType: 'b' });
    expect(parseAccept(' APPLICATION/JSON ')[0]).toMatchObject({ type: 'APPLICATION', subType: 'JSON' });
    const p = parseAccept('a/b; x = 1 ;y=;z=1=2;w=3=;q=0.25')[0]!;
    expect([...p.params]).toEqual([
      ['x', '1'],
      ['w', '3'],
    ]);
    expect(p.q).toBe(0.25);
    expect(parseAccept('a/b;q= 1')[0]!.q).toBe(0);
    expect(parseAccept('a/b;q=0.1')[0]!.q).toBe(Math.fround(0.1));
    // strconv.ParseFloat's syntax: underscores between digits, hex floats with a p exponent.
    const q = (v: string): number => parseAccept(`a/b;q=${v}`)[0]!.q;
    expect([q('1_0'), q('0x1p-2'), q('0X1.8P1'), q('1__0'), q('_1'), q('0x1'), q('+nan'), q('1e1_0')]).toEqual([
      10, 0.25, 3, 0, 0, 0, 0, 1e10,
    ]);
  });
});

describe('q of any length (strconv.ParseFloat)', () => {
  const q = (v: string): number => parseAccept(`a/b;q=${v}`)[0]!.q;

  /** The parser as it was before q's syntax was matched in one way only (checked against Go). */
  const before = (s: string): number => {
    const m =
      /^([+-]?)(?:(0[xX])((?:[0-9a-fA-F_]*\.?[0-9a-fA-F_]*))[pP]([+-]?[0-9][0-9_]*)|((?:[0-9_]*\.?[0-9_]*))(?:[eE]([+-]?[0-9][0-9_]*))?)$/.exec(
        s,
      );
    if (!m) return 0;
    return q(s);
  };

  it('reads a long q that does not parse in time linear in its length', () => {
    const started = performance.now();
    for (const v of ['1'.repeat(16_000) + 'x', '0x' + '1'.repeat(16_000) + 'x', '1_'.repeat(8_000) + '.x'])
      expect(q(v)).toBe(0);
    // each was 0.3-0.4 s of regular expression backtracking (60 KB, the HTTP/2 header bound: 8 s)
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('parses what the one-way syntax parses, and nothing else', () => {
    const text = fc.string({ unit: fc.constantFrom(...'019aAfF_.xXpPeE+-'.split('')), maxLength: 12 });
    fc.assert(
      fc.property(text, (v) => {
        expect(Object.is(q(v), before(v))).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('keeps a hex mantissa longer than 16 digits finite, and a zero mantissa zero, as Go’s readFloat', () => {
    expect(q(`0x${'1'.repeat(300)}p-2000`)).toBe(0);
    expect(q(`0x${'1'.repeat(300)}p0`)).toBe(Infinity);
    expect(q(`0x1${'0'.repeat(40)}p-160`)).toBe(1);
    expect(q(`0x.${'0'.repeat(40)}1p164`)).toBe(1);
    expect(q('0x0p2000')).toBe(0);
    expect(Object.is(q('-0x0p2000'), -0)).toBe(true);
  });
});

describe('negotiateOutput', () => {
  it('serves JSON by default, YAML when asked, in goautoneg’s order', () => {
    expect(chosen(undefined)).toEqual({ mediaType: 'application/json', as: 'object' });
    expect(chosen('')).toEqual({ mediaType: 'application/json', as: 'object' });
    expect(chosen('*/*')).toEqual({ mediaType: 'application/json', as: 'object' });
    expect(chosen('application/*')).toEqual({ mediaType: 'application/json', as: 'object' });
    expect(chosen('application/yaml')).toEqual({ mediaType: 'application/yaml', as: 'object' });
    expect(chosen('application/json;q=0.5, application/yaml')).toEqual({ mediaType: 'application/yaml', as: 'object' });
    expect(chosen('application/vnd.kubernetes.protobuf, application/json')).toEqual({
      mediaType: 'application/json',
      as: 'object',
    });
    expect(chosen('application/json;stream=watch')).toEqual({ mediaType: 'application/json', as: 'object' });
    expect(chosen('application/json;pretty=1')).toEqual({ mediaType: 'application/json', as: 'object', pretty: true });
  });

  it('picks the conversions kube-apiserver offers: Table, PartialObjectMetadata(List) of meta.k8s.io v1 and v1beta1', () => {
    expect(chosen('application/json;as=Table;v=v1;g=meta.k8s.io')).toMatchObject({ as: 'Table', version: 'v1' });
    expect(chosen('application/json; as=Table; v=v1beta1; g=meta.k8s.io')).toMatchObject({
      as: 'Table',
      version: 'v1beta1',
    });
    expect(chosen('application/yaml;as=Table;v=v1;g=meta.k8s.io')).toEqual({
      mediaType: 'application/yaml',
      as: 'Table',
      version: 'v1',
    });
    // client-go's metadata client, as it asks for lists and for single objects and watches.
    expect(
      chosen(
        'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
      ),
    ).toEqual({ mediaType: 'application/json', as: 'PartialObjectMetadataList', version: 'v1' });
    expect(chosen('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1')).toMatchObject({
      as: 'PartialObjectMetadata',
      version: 'v1beta1',
    });
    // Conversions kube does not offer are skipped for the next clause.
    for (const skipped of [
      'application/json;as=Table;v=v2;g=meta.k8s.io',
      'application/json;as=Table;v=v1;g=other',
      'application/json;as=Table;g=meta.k8s.io',
      'application/json;as=Event;v=v1;g=meta.k8s.io',
      'application/json;v=v1',
      'application/json;g=meta.k8s.io;v=v1',
      'application/json;stream=other',
      'application/yaml;stream=watch',
      'application/json;sv=v2',
    ]) {
      expect([skipped, chosen(`${skipped}, application/json;q=0.1`)]).toEqual([
        skipped,
        { mediaType: 'application/json', as: 'object' },
      ]);
    }
  });

  it('406 when no clause is served, listing the media types kevents writes', () => {
    for (const a of [
      'text/html',
      'application/vnd.kubernetes.protobuf',
      'APPLICATION/JSON',
      'application/json;as;v=v1',
      ',',
    ]) {
      const err = refusal(() => negotiateOutput(a));
      expect(err).toBeInstanceOf(ApiError);
      expect(err.status).toMatchObject({
        code: 406,
        reason: 'NotAcceptable',
        message: 'only the following media types are accepted: application/json, application/yaml',
      });
    }
  });

  it('a watch needs a streaming serializer: YAML chosen is a 406 listing the watch media types', () => {
    expect(negotiateWatch('application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1').representation).toEqual({
      as: 'PartialObjectMetadata',
      version: 'v1',
    });
    // kube does not go on to the next clause once YAML is chosen.
    const err = refusal(() => negotiateWatch('application/yaml, application/json;q=0.5'));
    expect(err.status).toMatchObject({
      code: 406,
      message: 'only the following media types are accepted: application/json;stream=watch',
    });
  });

  it('offers protobuf for resources with protobuf messages, as kube-apiserver does for built-in kinds', () => {
    const pb = { protobuf: true };
    const n = (accept: string) => {
      const r = negotiateOutput(accept, pb);
      return { mediaType: r.mediaType, ...r.representation };
    };
    expect(n('application/vnd.kubernetes.protobuf, application/json')).toEqual({
      mediaType: 'application/vnd.kubernetes.protobuf',
      as: 'object',
    });
    expect(
      n('application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json'),
    ).toEqual({
      mediaType: 'application/vnd.kubernetes.protobuf',
      as: 'PartialObjectMetadataList',
      version: 'v1',
    });
    // Tables are JSON or YAML only; PartialObjectMetadata of meta.k8s.io/v1beta1 is protobuf too.
    expect(n('application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1,application/json')).toEqual({
      mediaType: 'application/json',
      as: 'object',
    });
    expect(
      n('application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1,application/json'),
    ).toEqual({
      mediaType: 'application/vnd.kubernetes.protobuf',
      as: 'PartialObjectMetadata',
      version: 'v1beta1',
    });
    expect(negotiateWatch('application/vnd.kubernetes.protobuf;stream=watch', pb).mediaType).toBe(
      'application/vnd.kubernetes.protobuf',
    );
    expect(refusal(() => negotiateOutput('text/html', pb)).status.message).toBe(
      'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
    expect(refusal(() => negotiateWatch('application/yaml', pb)).status.message).toBe(
      'only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch',
    );
    // Without protobuf messages (a custom resource), protobuf is skipped.
    expect(negotiateOutput('application/vnd.kubernetes.protobuf, application/json').mediaType).toBe('application/json');
  });

  it('never throws anything but a 406', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (a) => {
        try {
          negotiateOutput(a);
          negotiateWatch(a);
        } catch (e) {
          expect((e as ApiError).status.code).toBe(406);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('negotiateStatus (ErrorNegotiated with the default endpoint restrictions)', () => {
  const status = (accept: string | undefined): string | undefined => negotiateStatus(accept)?.mediaType;

  it('offers protobuf as kube’s codecs do, for every resource', () => {
    expect(status('application/vnd.kubernetes.protobuf')).toBe('application/vnd.kubernetes.protobuf');
    expect(status('application/vnd.kubernetes.protobuf, */*')).toBe('application/vnd.kubernetes.protobuf');
    expect(status('application/vnd.kubernetes.protobuf;stream=watch')).toBe('application/vnd.kubernetes.protobuf');
    expect(status('application/*')).toBe('application/json');
    expect(status(undefined)).toBe('application/json');
  });

  it('skips conversions, server versions and other streams; nothing left is undefined (WriteRawJSON)', () => {
    expect(status('application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1')).toBeUndefined();
    expect(status('application/vnd.kubernetes.protobuf;sv=v1')).toBeUndefined();
    expect(status('application/vnd.kubernetes.protobuf;stream=other, application/yaml')).toBe('application/yaml');
    expect(status('application/yaml;stream=watch')).toBeUndefined();
  });

  it('never throws on any header', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (h) => {
        const n = negotiateStatus(h);
        expect(n === undefined || typeof n.mediaType === 'string').toBe(true);
      }),
    );
  });
});
