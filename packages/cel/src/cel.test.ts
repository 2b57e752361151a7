import { describe, expect, it } from '@jest/globals';
import { CelError, compile, fromCelValue, selectsField, toCelValue, type CelEnvironmentName } from './index.js';

const claims = toCelValue({
  sub: 'alice',
  iss: 'https://issuer.example.com',
  email: 'alice@example.com',
  email_verified: true,
  groups: ['dev', 'ops'],
  n: 3,
  ratio: 1.5,
  exp: 1700003600,
  nested: { team: 'core', level: 2 },
  empty: [],
}) as Record<string, unknown>;

const user = {
  username: 'system:serviceaccount:ns:sa',
  uid: '42',
  groups: ['system:authenticated', 'dev'],
  extra: { 'example.com/scope': ['a', 'b'] },
};

const request = {
  user: 'alice',
  uid: '1',
  groups: ['dev', 'system:authenticated'],
  extra: { 'example.com/tier': ['gold'] },
  resourceAttributes: {
    namespace: 'kube-system',
    verb: 'get',
    group: '',
    version: 'v1',
    resource: 'pods',
    subresource: '',
    name: 'p',
  },
};

const activation = { claims, user, request };

function run(env: CelEnvironmentName, expression: string): unknown {
  return fromCelValue(compile(env, expression).evaluate(activation));
}

function failure(fn: () => unknown): CelError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CelError) return e;
    throw e;
  }
  throw new Error('expected a CelError');
}

describe('claims environment: values', () => {
  const cases: [string, unknown][] = [
    ["'oidc:' + claims.sub", 'oidc:alice'],
    ['claims.email_verified == true', true],
    ["claims.?nickname.orValue('anon')", 'anon'],
    ["claims.?sub.orValue('anon')", 'alice'],
    ['claims.?nested.?team.orValue("none")', 'core'],
    ['claims.?nested.?missing.hasValue()', false],
    ['optional.of(1).hasValue() && !optional.none().hasValue()', true],
    ['has(claims.groups) && !has(claims.nickname)', true],
    ['has(claims.nested.team)', true],
    ["claims.groups.map(g, 'oidc:' + g)", ['oidc:dev', 'oidc:ops']],
    ["claims.groups.filter(g, g.startsWith('d'))", ['dev']],
    ["claims.groups.exists(g, g == 'ops')", true],
    ['claims.groups.all(g, g.size() == 3)', true],
    ["claims.groups.exists_one(g, g == 'dev')", true],
    ['claims.groups.map(g, g.size() > 2, g.upperAscii())', ['DEV', 'OPS']],
    ["claims.?role.orValue('') == 'admin' ? ['admins'] : []", []],
    ['size(claims.groups)', 2],
    ['claims.n * 2', 6],
    ['claims.n / 2', 1],
    ['claims.n % 2', 1],
    ['claims.ratio * 2.0', 3],
    ['double(claims.n) / 2.0', 1.5],
    ['int(claims.ratio)', 1],
    ['claims.n == 3', true],
    ['claims.exp > 1700000000', true],
    ["string(claims.n) + 'x'", '3x'],
    ['claims.nested.level + 1', 3],
    ['claims.empty.size() == 0', true],
    ["claims.email.split('@')[1]", 'example.com'],
    ["claims.groups.join(',')", 'dev,ops'],
    ["claims.sub in ['alice', 'bob']", true],
    ["'dev' in claims.groups", true],
    ["{'a': 1}['a']", 1],
    ['[1, 2, 3][1]', 2],
    ["timestamp(claims.exp) > timestamp('2023-01-01T00:00:00Z')", true],
    ["duration('90s') < duration('2m')", true],
  ];
  it.each(cases)('%s', (expr, want) => {
    expect(run('claims', expr)).toEqual(want);
  });
});

describe('string functions', () => {
  const cases: [string, unknown][] = [
    ["'Kubernetes'.lowerAscii()", 'kubernetes'],
    ["'ÄBC'.lowerAscii()", 'Äbc'],
    ["'äbc'.upperAscii()", 'äBC'],
    ["'  x  '.trim()", 'x'],
    ["'kubernetes'.contains('bern')", true],
    ["'kubernetes'.startsWith('kube') && 'kubernetes'.endsWith('tes')", true],
    ["'kubernetes'.indexOf('e')", 3],
    ["'kubernetes'.lastIndexOf('e')", 8],
    ["'kubernetes'.substring(4)", 'rnetes'],
    ["'kubernetes'.substring(0, 4)", 'kube'],
    ["'a,b,c'.split(',')", ['a', 'b', 'c']],
    ["'kubernetes'.split('e', 2)", ['kub', 'rnetes']],
    ["'a-b-c'.replace('-', '_')", 'a_b_c'],
    ["'a-b-c'.replace('-', '_', 1)", 'a_b-c'],
    ["'kubernetes'.charAt(0)", 'k'],
    ["'abc'.reverse()", 'cba'],
    ["'%s-%s'.format(['a', 'b'])", 'a-b'],
    ["'%d items'.format([3])", '3 items'],
    ["'%.2f'.format([1.5])", '1.50'],
    ["'%x'.format([255])", 'ff'],
    ["strings.quote('a\"b')", '"a\\"b"'],
    ["['a', 'b'].join('-')", 'a-b'],
  ];
  it.each(cases)('%s', (expr, want) => {
    expect(run('claims', expr)).toEqual(want);
  });
});

describe('RE2 regular expressions', () => {
  const cases: [string, unknown][] = [
    ["'ABC'.matches('(?i)abc')", true],
    ["claims.email.matches('^[a-z]+@example\\\\.com$')", true],
    ["claims.sub.matches('li')", true],
    ["claims.sub.matches('^li')", false],
    ["'abc 123'.find('[0-9]+')", '123'],
    ["'a1b22c333'.findAll('[0-9]+')", ['1', '22', '333']],
    ["'a1b22c333'.findAll('[0-9]+', 2)", ['1', '22']],
  ];
  it.each(cases)('%s', (expr, want) => {
    expect(run('claims', expr)).toEqual(want);
  });

  it.each([
    "'aa'.matches('(a)\\\\1')",
    "claims.sub.matches('(?<=a)b')",
    "claims.sub.matches('(?=a)')",
    "'abc'.matches('[')",
  ])('rejects the non-RE2 or invalid pattern in %s at compile time', (expr) => {
    const e = failure(() => compile('claims', expr));
    expect(e.code).toBe('CEL_COMPILE');
    expect(e.message).toMatch(/^compilation failed: ERROR: <input>:1:\d+: invalid regular expression: /);
  });

  it('rejects a bad pattern that arrives at evaluation time', () => {
    const c = compile('claims', 'claims.sub.matches(claims.pattern)');
    const e = failure(() => c.evaluate({ claims: { sub: 'a', pattern: '(a)\\1' } }));
    expect(e.code).toBe('CEL_EVALUATION');
    expect(e.message).toMatch(/^invalid regular expression/);
    expect(c.evaluate({ claims: { sub: 'ABC', pattern: '(?i)abc' } })).toBe(true);
  });
});

describe('lists and sets', () => {
  const cases: [string, unknown][] = [
    ['[1, 2, 3].sum()', 6],
    ['[3, 1].isSorted()', false],
    ["['a', 'b'].isSorted()", true],
    ['[3, 1, 2].min()', 1],
    ['[3, 1, 2].max()', 3],
    ["['a', 'b', 'a'].lastIndexOf('a')", 2],
    ["sets.contains(['a', 'b'], ['a'])", true],
    ["sets.equivalent(['a', 'b'], ['b', 'a', 'a'])", true],
    ["sets.intersects(['a'], ['b'])", false],
  ];
  it.each(cases)('%s', (expr, want) => {
    expect(run('claims', expr)).toEqual(want);
  });
});

describe('user and request environments', () => {
  it.each([
    ["user.username.startsWith('system:serviceaccount:')", true],
    ["'dev' in user.groups", true],
    ["user.extra['example.com/scope'].size() == 2", true],
    ["user.uid == '42'", true],
  ] as const)('user: %s', (expr, want) => {
    expect(run('user', expr)).toBe(want);
  });

  it.each([
    ["has(request.resourceAttributes) && request.resourceAttributes.namespace == 'kube-system'", true],
    ["!('system:masters' in request.groups)", true],
    ['has(request.nonResourceAttributes)', false],
    ["request.extra['example.com/tier'][0] == 'gold'", true],
    ["request.resourceAttributes.verb in ['get', 'list']", true],
  ] as const)('request: %s', (expr, want) => {
    expect(run('request', expr)).toBe(want);
  });

  it('match conditions see resourceAttributes as optional', () => {
    const c = compile('request', "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'x'", {
      resultType: 'bool',
    });
    expect(c.evaluate({ request: { user: 'u', groups: [] } })).toBe(false);
  });
});

describe('compile-time errors', () => {
  const cases: [CelEnvironmentName, string, string][] = [
    [
      'claims',
      'foo',
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo\n | ^",
    ],
    [
      'claims',
      'user.username',
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'user' (in container '')\n | user.username\n | ^",
    ],
    [
      'user',
      "claims.sub == 'a'",
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'claims' (in container '')\n | claims.sub == 'a'\n | ^",
    ],
    [
      'user',
      'user.nosuch',
      "compilation failed: ERROR: <input>:1:6: undefined field 'nosuch'\n | user.nosuch\n |      ^",
    ],
    [
      'claims',
      "'a' +",
      "compilation failed: ERROR: <input>:1:6: Syntax error: unexpected token: EOF\n | 'a' +\n |      ^",
    ],
  ];
  it.each(cases)('%s: %s', (env, expr, message) => {
    const e = failure(() => compile(env, expr));
    expect(e.code).toBe('CEL_COMPILE');
    expect(e.message).toBe(message);
  });

  it.each([
    "'a' + 1",
    '1 == 1.0',
    "[1, 'a']",
    "true ? 1 : 'a'",
    "duration('1x') > duration('1s')",
    "timestamp('not-a-time') > timestamp('2020-01-01T00:00:00Z')",
    '!claims.sub.size()',
  ])('rejects %s', (expr) => {
    const e = failure(() => compile('claims', expr));
    expect(e.code).toBe('CEL_COMPILE');
    expect(e.message).toMatch(/^compilation failed: ERROR: <input>:1:\d+: /);
  });

  it('rejects a non-bool comprehension predicate on a typed list', () => {
    expect(failure(() => compile('user', 'user.groups.all(g, g)')).code).toBe('CEL_COMPILE');
  });

  it.each([
    ['claims', 'claims.sub', 'must evaluate to bool', 'dyn'],
    ['claims', "claims.?x.orValue(true) == true ? 'a' : 'b'", 'must evaluate to bool', 'string'],
    ['user', 'user.groups', 'must evaluate to bool', 'list(string)'],
  ] as const)('%s: %s does not evaluate to bool', (env, expr, message, type) => {
    const e = failure(() => compile(env, expr, { resultType: 'bool' }));
    expect(e.code).toBe('CEL_RESULT_TYPE');
    expect(e.message).toBe(message);
    expect(e.outputType).toBe(type);
  });

  it('words the authorization result-type error with the actual type', () => {
    const e = failure(() => compile('request', 'request.user', { resultType: 'bool', reportActualType: true }));
    expect(e.message).toBe('must evaluate to bool but got string');
  });

  it.each(['claims.email_verified == true', 'has(claims.x)', 'claims.?x.orValue(true) == true', "claims.sub == 'bar'"])(
    '%s is bool',
    (expr) => {
      expect(compile('claims', expr, { resultType: 'bool' }).outputType).toBe('bool');
    },
  );

  it('rejects an expression beyond the parser limits', () => {
    const deep = `${'('.repeat(200)}1${')'.repeat(200)}`;
    expect(failure(() => compile('claims', deep)).code).toBe('CEL_COMPILE');
  });
});

describe('evaluation errors', () => {
  it('a missing key is an error, not null', () => {
    const e = failure(() => run('claims', 'claims.nickname'));
    expect(e.code).toBe('CEL_EVALUATION');
    expect(e.message).toBe('no such key: nickname');
  });

  it('int and double do not mix', () => {
    expect(failure(() => run('claims', 'claims.ratio + 1')).message).toMatch(/^no such overload/);
    expect(failure(() => run('claims', 'claims.n + 1.5')).message).toMatch(/^no such overload/);
  });

  it('plain JSON numbers would be doubles; toCelValue makes integral ones int64', () => {
    expect(toCelValue({ a: 1, b: 1.5, c: [2] })).toEqual({ a: 1n, b: 1.5, c: [2n] });
    const c = compile('claims', 'claims.a * 2');
    expect(c.evaluate({ claims: toCelValue({ a: 4 }) })).toBe(8n);
    expect(() => c.evaluate({ claims: { a: 4 } })).toThrow(CelError);
  });

  it('int64 overflow is an error', () => {
    expect(failure(() => run('claims', '9223372036854775807 + claims.n')).code).toBe('CEL_EVALUATION');
  });

  it('division by zero is an error', () => {
    expect(failure(() => run('claims', 'claims.n / 0')).code).toBe('CEL_EVALUATION');
  });

  it('stops an expression that exceeds the cost limit', () => {
    const big = toCelValue({ xs: Array.from({ length: 2000 }, (_, i) => i) });
    const c = compile('claims', 'claims.xs.map(x, claims.xs.map(y, x + y)).size()');
    const started = Date.now();
    const e = failure(() => c.evaluate({ claims: big }));
    expect(e.code).toBe('CEL_COST_LIMIT');
    expect(Date.now() - started).toBeLessThan(5000);
    const small = compile('claims', 'claims.xs.map(x, x * 2).size()', { costLimit: 10 });
    expect(failure(() => small.evaluate({ claims: big })).code).toBe('CEL_COST_LIMIT');
    expect(compile('claims', 'claims.xs.map(x, x * 2).size()').evaluate({ claims: big })).toBe(2000n);
  });
});

describe('selectsField', () => {
  const uses = (expr: string, field: string) => selectsField(compile('claims', expr).ast, 'claims', field);
  it.each([
    ['claims.email', true],
    ['claims.?email.orValue("")', true],
    ['has(claims.email) ? claims.email : ""', true],
    ["['a'].map(i, i + claims.email)", true],
    ['string(claims.email)', true],
    ['claims.email.trim()', true],
    ['{claims.email: "x"}', true],
    ['claims["email"]', false],
    ['claims.other.claims.email', false],
    ['claims.email_', false],
  ])('%s uses claims.email: %s', (expr, want) => {
    expect(uses(expr, 'email')).toBe(want);
  });
});
