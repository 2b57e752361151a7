import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseConfig } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'kevents-config-'));
const kubeconfig = join(dir, 'webhook.kubeconfig');
writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\n');
const certFile = join(dir, 'client.crt');
writeFileSync(certFile, 'x');
mkdirSync(join(dir, 'a-directory'));

const AUTHN = 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\n';
const AUTHZ = 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\n';
const EGRESS = 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\n';
const TRACING = 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\n';

/** `[field, type, detail fragment?]` of every error. */
function errorsOf(doc: string): [string, string, string][] {
  const r = parseConfig(doc);
  return r.ok ? [] : r.errors.map((e) => [e.field, e.type, e.detail]);
}

function expectErrors(doc: string, want: [string, string, string?][]): void {
  const got = errorsOf(doc);
  expect(got.map(([f, t]) => [f, t])).toEqual(want.map(([f, t]) => [f, t]));
  want.forEach(([, , d], i) => {
    if (d !== undefined) expect(got[i]![2]).toContain(d);
  });
}

/** A valid JWT authenticator, with `issuer` and mappings overridable as YAML fragments. */
function jwt(opts: { issuer?: string; mappings?: string; extra?: string } = {}): string {
  return `jwt:
- issuer:
${opts.issuer ?? '    url: https://issuer.example.com\n    audiences: [kevents]'}
${opts.extra ?? ''}  claimMappings:
${opts.mappings ?? '    username:\n      claim: sub\n      prefix: ""'}
`;
}

describe('AuthenticationConfiguration: valid documents', () => {
  it.each([
    ['no authenticators', AUTHN],
    ['empty jwt list', `${AUTHN}jwt: []\n`],
    ['minimal claim mapping', AUTHN + jwt()],
    [
      'every field',
      `${AUTHN}jwt:
- issuer:
    url: https://issuer.example.com/path
    discoveryURL: https://discovery.example.com/.well-known/openid-configuration
    audiences: [a, b]
    audienceMatchPolicy: MatchAny
    egressSelectorType: controlplane
  claimValidationRules:
  - claim: hd
    requiredValue: example.com
  - expression: "claims.?email_verified.orValue(true) == true"
    message: email must be verified
  claimMappings:
    username:
      expression: "claims.email"
    groups:
      claim: groups
      prefix: "oidc:"
    uid:
      claim: sub
    extra:
    - key: example.com/tenant
      valueExpression: "claims.?tenant.orValue('')"
  userValidationRules:
  - expression: "!user.username.startsWith('system:')"
    message: no system users
anonymous:
  enabled: true
  conditions:
  - path: /livez
  - path: /readyz
`,
    ],
    [
      'single audience with MatchAny',
      AUTHN + jwt({ issuer: '    url: https://i\n    audiences: [a]\n    audienceMatchPolicy: MatchAny' }),
    ],
    [
      'upper-case scheme, bare ? and #',
      AUTHN + jwt({ issuer: '    url: HTTPS://issuer.example.com?#\n    audiences: [a]' }),
    ],
    [
      'email in username expression with email_verified in extra',
      AUTHN +
        jwt({
          mappings:
            '    username:\n      expression: claims.email\n    extra:\n    - key: example.com/v\n      valueExpression: "string(claims.email_verified)"',
        }),
    ],
    [
      'groups prefix alone is accepted',
      AUTHN + jwt({ mappings: '    username:\n      claim: sub\n      prefix: ""\n    groups:\n      prefix: x' }),
    ],
    ['anonymous disabled without conditions', `${AUTHN}anonymous:\n  enabled: false\n`],
    [
      'discoveryURL null means unset',
      AUTHN + jwt({ issuer: '    url: https://i\n    discoveryURL: null\n    audiences: [a]' }),
    ],
    [
      'JSON document',
      JSON.stringify({
        apiVersion: 'apiserver.config.k8s.io/v1beta1',
        kind: 'AuthenticationConfiguration',
        jwt: [
          { issuer: { url: 'https://i', audiences: ['a'] }, claimMappings: { username: { claim: 'sub', prefix: '' } } },
        ],
      }),
    ],
  ])('%s', (_name, doc) => {
    expect(errorsOf(doc)).toEqual([]);
  });
});

describe('AuthenticationConfiguration: rules', () => {
  it.each<[string, string, [string, string, string?][]]>([
    [
      '64 authenticators max',
      AUTHN +
        'jwt:\n' +
        Array.from(
          { length: 65 },
          (_, i) =>
            `- issuer: {url: "https://i${i}", audiences: [a]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n`,
        ).join(''),
      [['jwt', 'FieldValueTooMany', 'must have at most 64 items']],
    ],
    [
      'issuer url required',
      AUTHN + jwt({ issuer: '    audiences: [a]' }),
      [['jwt[0].issuer.url', 'FieldValueRequired']],
    ],
    [
      'issuer url scheme',
      AUTHN + jwt({ issuer: '    url: http://issuer.example.com\n    audiences: [a]' }),
      [['jwt[0].issuer.url', 'FieldValueInvalid', 'URL scheme must be https']],
    ],
    [
      'issuer url without scheme',
      AUTHN + jwt({ issuer: '    url: invalid-url\n    audiences: [a]' }),
      [['jwt[0].issuer.url', 'FieldValueInvalid', 'URL scheme must be https']],
    ],
    [
      'issuer url bad port',
      AUTHN + jwt({ issuer: '    url: https://issuer-url:invalid-port\n    audiences: [a]' }),
      [
        [
          'jwt[0].issuer.url',
          'FieldValueInvalid',
          'parse "https://issuer-url:invalid-port": invalid port ":invalid-port" after host',
        ],
      ],
    ],
    [
      'issuer url with user, query and fragment',
      AUTHN + jwt({ issuer: '    url: https://user:pass@issuer?x=1#frag\n    audiences: [a]' }),
      [
        ['jwt[0].issuer.url', 'FieldValueInvalid', 'URL must not contain a username or password'],
        ['jwt[0].issuer.url', 'FieldValueInvalid', 'URL must not contain a query'],
        ['jwt[0].issuer.url', 'FieldValueInvalid', 'URL must not contain a fragment'],
      ],
    ],
    [
      'discoveryURL equal to url',
      AUTHN + jwt({ issuer: '    url: https://i/\n    discoveryURL: https://i\n    audiences: [a]' }),
      [['jwt[0].issuer.discoveryURL', 'FieldValueInvalid', 'discoveryURL must be different from URL']],
    ],
    [
      'discoveryURL scheme',
      AUTHN + jwt({ issuer: '    url: https://i\n    discoveryURL: http://d\n    audiences: [a]' }),
      [['jwt[0].issuer.discoveryURL', 'FieldValueInvalid', 'URL scheme must be https']],
    ],
    [
      'audiences required',
      AUTHN + jwt({ issuer: '    url: https://i' }),
      [['jwt[0].issuer.audiences', 'FieldValueRequired', 'at least one jwt[0].issuer.audiences is required']],
    ],
    [
      'empty and duplicate audience',
      AUTHN + jwt({ issuer: '    url: https://i\n    audiences: [a, "", a]\n    audienceMatchPolicy: MatchAny' }),
      [
        ['jwt[0].issuer.audiences[1]', 'FieldValueRequired'],
        ['jwt[0].issuer.audiences[2]', 'FieldValueDuplicate'],
      ],
    ],
    [
      'multiple audiences need MatchAny',
      AUTHN + jwt({ issuer: '    url: https://i\n    audiences: [a, b]' }),
      [
        [
          'jwt[0].issuer.audienceMatchPolicy',
          'FieldValueInvalid',
          'audienceMatchPolicy must be MatchAny for multiple audiences',
        ],
      ],
    ],
    [
      'single audience policy',
      AUTHN + jwt({ issuer: '    url: https://i\n    audiences: [a]\n    audienceMatchPolicy: MatchExact' }),
      [
        [
          'jwt[0].issuer.audienceMatchPolicy',
          'FieldValueInvalid',
          'audienceMatchPolicy must be empty or MatchAny for single audience',
        ],
      ],
    ],
    [
      'certificate authority',
      AUTHN + jwt({ issuer: '    url: https://i\n    audiences: [a]\n    certificateAuthority: not a pem' }),
      [
        [
          'jwt[0].issuer.certificateAuthority',
          'FieldValueInvalid',
          'data does not contain any valid RSA or ECDSA certificates',
        ],
      ],
    ],
    [
      'egress selector type',
      AUTHN + jwt({ issuer: '    url: https://i\n    audiences: [a]\n    egressSelectorType: etcd' }),
      [
        [
          'jwt[0].issuer.egressSelectorType',
          'FieldValueInvalid',
          'egress selector must be either controlplane or cluster',
        ],
      ],
    ],
    [
      'duplicate issuer and discovery URLs',
      AUTHN +
        'jwt:\n' +
        [1, 2]
          .map(
            () =>
              '- issuer: {url: "https://i", discoveryURL: "https://d", audiences: [a]}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n',
          )
          .join(''),
      [
        ['jwt[1].issuer.url', 'FieldValueDuplicate'],
        ['jwt[1].issuer.discoveryURL', 'FieldValueDuplicate'],
      ],
    ],
    [
      'claim rule with claim and expression',
      AUTHN + jwt({ extra: '  claimValidationRules:\n  - claim: a\n    expression: "true"\n' }),
      [['jwt[0].claimValidationRules[0]', 'FieldValueInvalid', "claim and expression can't both be set"]],
    ],
    [
      'claim rule with neither',
      AUTHN + jwt({ extra: '  claimValidationRules:\n  - requiredValue: x\n' }),
      [['jwt[0].claimValidationRules[0]', 'FieldValueRequired', 'claim or expression is required']],
    ],
    [
      'claim rule with message, duplicate claim',
      AUTHN + jwt({ extra: '  claimValidationRules:\n  - claim: hd\n  - claim: hd\n    message: m\n' }),
      [
        ['jwt[0].claimValidationRules[1].message', 'FieldValueInvalid', 'may not be specified when claim is set'],
        ['jwt[0].claimValidationRules[1].claim', 'FieldValueDuplicate'],
      ],
    ],
    [
      'expression rule with requiredValue',
      AUTHN + jwt({ extra: '  claimValidationRules:\n  - expression: "claims.hd == \'x\'"\n    requiredValue: x\n' }),
      [
        [
          'jwt[0].claimValidationRules[0].requiredValue',
          'FieldValueInvalid',
          'may not be specified when expression is set',
        ],
      ],
    ],
    [
      'duplicate expression rule',
      AUTHN +
        jwt({ extra: '  claimValidationRules:\n  - expression: "has(claims.x)"\n  - expression: "has(claims.x)"\n' }),
      [['jwt[0].claimValidationRules[1].expression', 'FieldValueDuplicate']],
    ],
    [
      'expression rule must be bool',
      AUTHN + jwt({ extra: '  claimValidationRules:\n  - expression: claims.foo\n' }),
      [['jwt[0].claimValidationRules[0].expression', 'FieldValueInvalid', 'must evaluate to bool']],
    ],
    [
      'expression rule undeclared reference',
      AUTHN + jwt({ extra: '  claimValidationRules:\n  - expression: "foo == 1"\n' }),
      [
        [
          'jwt[0].claimValidationRules[0].expression',
          'FieldValueInvalid',
          "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')",
        ],
      ],
    ],
    [
      'username claim and expression',
      AUTHN + jwt({ mappings: '    username:\n      claim: sub\n      expression: claims.sub' }),
      [['jwt[0].claimMappings.username', 'FieldValueInvalid', "claim and expression can't both be set"]],
    ],
    [
      'username required',
      AUTHN + jwt({ mappings: '    username:\n      prefix: x' }),
      [['jwt[0].claimMappings.username', 'FieldValueRequired', 'claim or expression is required']],
    ],
    [
      'username prefix with expression',
      AUTHN + jwt({ mappings: '    username:\n      expression: claims.sub\n      prefix: ""' }),
      [['jwt[0].claimMappings.username.prefix', 'FieldValueInvalid', 'may not be specified when expression is set']],
    ],
    [
      'username claim needs prefix',
      AUTHN + jwt({ mappings: '    username:\n      claim: sub' }),
      [['jwt[0].claimMappings.username.prefix', 'FieldValueRequired', 'prefix is required when claim is set']],
    ],
    [
      'groups claim needs prefix',
      AUTHN + jwt({ mappings: '    username:\n      claim: sub\n      prefix: ""\n    groups:\n      claim: groups' }),
      [['jwt[0].claimMappings.groups.prefix', 'FieldValueRequired']],
    ],
    [
      'uid claim and expression',
      AUTHN +
        jwt({
          mappings:
            '    username:\n      claim: sub\n      prefix: ""\n    uid:\n      claim: sub\n      expression: claims.sub',
        }),
      [['jwt[0].claimMappings.uid', 'FieldValueInvalid']],
    ],
    [
      'uid expression compile error',
      AUTHN +
        jwt({ mappings: '    username:\n      claim: sub\n      prefix: ""\n    uid:\n      expression: "user.uid"' }),
      [['jwt[0].claimMappings.uid.expression', 'FieldValueInvalid', "undeclared reference to 'user'"]],
    ],
    [
      'extra key rules',
      AUTHN +
        jwt({
          mappings:
            '    username:\n      claim: sub\n      prefix: ""\n    extra:\n    - key: ""\n      valueExpression: "\'x\'"\n    - key: foo\n      valueExpression: "\'x\'"\n    - key: Example.org/foo\n      valueExpression: "\'x\'"\n    - key: k8s.io/foo\n      valueExpression: "\'x\'"\n    - key: example.org/a\n      valueExpression: "\'x\'"\n    - key: example.org/a\n      valueExpression: "\'y\'"\n    - key: example.org/b',
        }),
      [
        ['jwt[0].claimMappings.extra[0].key', 'FieldValueRequired'],
        [
          'jwt[0].claimMappings.extra[1].key',
          'FieldValueInvalid',
          'must be a domain-prefixed path (such as "acme.io/foo")',
        ],
        ['jwt[0].claimMappings.extra[2].key', 'FieldValueInvalid', 'a lowercase RFC 1123 subdomain'],
        ['jwt[0].claimMappings.extra[2].key', 'FieldValueInvalid', 'must be lowercase'],
        [
          'jwt[0].claimMappings.extra[3].key',
          'FieldValueInvalid',
          'k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use',
        ],
        ['jwt[0].claimMappings.extra[5].key', 'FieldValueDuplicate'],
        ['jwt[0].claimMappings.extra[6].valueExpression', 'FieldValueRequired'],
      ],
    ],
    [
      'email without email_verified',
      AUTHN + jwt({ mappings: '    username:\n      expression: claims.email' }),
      [
        [
          'jwt[0].claimMappings.username.expression',
          'FieldValueInvalid',
          'claims.email_verified must be used in claimMappings.username.expression',
        ],
      ],
    ],
    [
      'email_verified via index syntax does not count',
      AUTHN +
        jwt({
          extra: '  claimValidationRules:\n  - expression: "claims[\'email_verified\'] == true"\n',
          mappings: '    username:\n      expression: claims.email',
        }),
      [['jwt[0].claimMappings.username.expression', 'FieldValueInvalid']],
    ],
    [
      'email_verified in groups does not count',
      AUTHN +
        jwt({
          mappings:
            '    username:\n      expression: claims.email\n    groups:\n      expression: "claims.email_verified ? [\'v\'] : []"',
        }),
      [['jwt[0].claimMappings.username.expression', 'FieldValueInvalid']],
    ],
    [
      'user validation rules',
      AUTHN +
        jwt({ extra: '' }) +
        '  userValidationRules:\n  - expression: ""\n  - expression: "user.username"\n  - expression: "claims.sub == \'x\'"\n  - expression: "has(user.uid)"\n  - expression: "has(user.uid)"\n',
      [
        ['jwt[0].userValidationRules[0].expression', 'FieldValueRequired'],
        ['jwt[0].userValidationRules[1].expression', 'FieldValueInvalid', 'must evaluate to bool'],
        ['jwt[0].userValidationRules[2].expression', 'FieldValueInvalid', "undeclared reference to 'claims'"],
        ['jwt[0].userValidationRules[4].expression', 'FieldValueDuplicate'],
      ],
    ],
    [
      'anonymous conditions need enabled',
      `${AUTHN}anonymous:\n  enabled: false\n  conditions:\n  - path: /livez\n`,
      [['anonymous.conditions', 'FieldValueInvalid', 'enabled should be set to true when conditions are defined']],
    ],
  ])('%s', (_name, doc, want) => {
    expectErrors(doc, want);
  });

  it('disallowed issuers come from the caller', () => {
    const r = parseConfig(AUTHN + jwt(), {
      authentication: { disallowedIssuers: ['https://issuer.example.com', 'https://a'] },
    });
    expect(r.ok ? [] : r.errors.map((e) => e.toString())).toEqual([
      'jwt[0].issuer.url: Invalid value: "https://issuer.example.com": URL must not overlap with disallowed issuers: [https://a https://issuer.example.com]',
    ]);
  });
});

const webhook = (fields: string): string => `${AUTHZ}authorizers:
- type: Webhook
  name: webhook
  webhook:
${fields}`;
const goodWebhook = `    timeout: 3s
    subjectAccessReviewVersion: v1
    failurePolicy: NoOpinion
    connectionInfo:
      type: InClusterConfig
`;

describe('AuthorizationConfiguration', () => {
  it.each([
    ['webhook and built-ins', `${webhook(goodWebhook)}- type: RBAC\n  name: rbac\n- type: Node\n  name: node\n`],
    ['two webhooks', `${webhook(goodWebhook)}- type: Webhook\n  name: second\n  webhook:\n${goodWebhook}`],
    [
      'PlatformConfigFile spelling',
      webhook(
        `    timeout: 30s\n    subjectAccessReviewVersion: v1beta1\n    failurePolicy: Deny\n    connectionInfo:\n      type: PlatformConfigFile\n      platformConfigFile: ${kubeconfig}\n`,
      ),
    ],
    [
      'KubeConfigFile spelling',
      webhook(
        `    timeout: 30s\n    subjectAccessReviewVersion: v1\n    matchConditionSubjectAccessReviewVersion: v1\n    failurePolicy: Deny\n    connectionInfo:\n      type: KubeConfigFile\n      kubeConfigFile: ${kubeconfig}\n    matchConditions:\n    - expression: "has(request.resourceAttributes)"\n    - expression: "request.resourceAttributes.namespace == 'kube-system'"\n`,
      ),
    ],
    ['AlwaysAllow', `${AUTHZ}authorizers:\n- type: AlwaysAllow\n  name: alwaysallow\n`],
  ])('valid: %s', (_name, doc) => {
    expect(errorsOf(doc)).toEqual([]);
  });

  it('applies the v1beta1 defaults', () => {
    const r = parseConfig(webhook(goodWebhook));
    expect(r.ok).toBe(true);
    const w = r.ok && 'authorizers' in r.config ? r.config.authorizers![0]!.webhook! : undefined;
    expect(w).toMatchObject({
      authorizedTTL: 300e9,
      unauthorizedTTL: 30e9,
      cacheAuthorizedRequests: true,
      cacheUnauthorizedRequests: true,
      timeout: 3e9,
    });
  });

  it.each<[string, string, [string, string, string?][]]>([
    [
      'authorizers required',
      AUTHZ,
      [['authorizers', 'FieldValueRequired', 'at least one authorization mode must be defined']],
    ],
    ['type required', `${AUTHZ}authorizers:\n- name: x\n`, [['authorizers[0].type', 'FieldValueRequired']]],
    [
      'type unknown',
      `${AUTHZ}authorizers:\n- type: webhook\n  name: x\n`,
      [
        [
          'authorizers[0].type',
          'FieldValueNotSupported',
          'supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"',
        ],
      ],
    ],
    [
      'type repeated',
      `${AUTHZ}authorizers:\n- type: RBAC\n  name: a\n- type: RBAC\n  name: b\n`,
      [['authorizers[1].type', 'FieldValueDuplicate']],
    ],
    ['name required', `${AUTHZ}authorizers:\n- type: RBAC\n`, [['authorizers[0].name', 'FieldValueRequired']]],
    [
      'name duplicate',
      `${AUTHZ}authorizers:\n- type: RBAC\n  name: a\n- type: Node\n  name: a\n`,
      [['authorizers[1].name', 'FieldValueDuplicate']],
    ],
    [
      'name invalid',
      `${AUTHZ}authorizers:\n- type: RBAC\n  name: Not_Valid\n`,
      [['authorizers[0].name', 'FieldValueInvalid', 'authorizer name is invalid: a lowercase RFC 1123 subdomain']],
    ],
    [
      'webhook required',
      `${AUTHZ}authorizers:\n- type: Webhook\n  name: w\n`,
      [['authorizers[0].webhook', 'FieldValueRequired', 'required when type=Webhook']],
    ],
    [
      'webhook only for Webhook',
      `${AUTHZ}authorizers:\n- type: RBAC\n  name: rbac\n  webhook: {}\n`,
      [['authorizers[0].webhook', 'FieldValueInvalid', 'may only be specified when type=Webhook']],
    ],
    [
      'empty webhook',
      webhook('    {}\n'),
      [
        ['authorizers[0].webhook.timeout', 'FieldValueRequired'],
        ['authorizers[0].webhook.subjectAccessReviewVersion', 'FieldValueRequired'],
        ['authorizers[0].webhook.failurePolicy', 'FieldValueRequired'],
        ['authorizers[0].webhook.connectionInfo.type', 'FieldValueRequired'],
      ],
    ],
    [
      'timeout too long',
      webhook(goodWebhook.replace('3s', '1m')),
      [['authorizers[0].webhook.timeout', 'FieldValueInvalid', 'must be > 0s and <= 30s']],
    ],
    [
      'timeout negative',
      webhook(goodWebhook.replace('3s', '-1s')),
      [['authorizers[0].webhook.timeout', 'FieldValueInvalid']],
    ],
    [
      'negative TTLs',
      webhook(`${goodWebhook}    authorizedTTL: -1s\n    unauthorizedTTL: -30s\n`),
      [
        ['authorizers[0].webhook.authorizedTTL', 'FieldValueInvalid', 'must be > 0s'],
        ['authorizers[0].webhook.unauthorizedTTL', 'FieldValueInvalid', 'must be > 0s'],
      ],
    ],
    [
      'SAR version',
      webhook(goodWebhook.replace('subjectAccessReviewVersion: v1', 'subjectAccessReviewVersion: v2')),
      [
        [
          'authorizers[0].webhook.subjectAccessReviewVersion',
          'FieldValueNotSupported',
          'supported values: "v1", "v1beta1"',
        ],
      ],
    ],
    [
      'match condition SAR version required',
      webhook(`${goodWebhook}    matchConditions:\n    - expression: "true"\n`),
      [
        [
          'authorizers[0].webhook.matchConditionSubjectAccessReviewVersion',
          'FieldValueRequired',
          'required if match conditions are specified',
        ],
      ],
    ],
    [
      'match condition SAR version',
      webhook(`${goodWebhook}    matchConditionSubjectAccessReviewVersion: v1beta1\n`),
      [
        [
          'authorizers[0].webhook.matchConditionSubjectAccessReviewVersion',
          'FieldValueNotSupported',
          'supported values: "v1"',
        ],
      ],
    ],
    [
      'failure policy',
      webhook(goodWebhook.replace('NoOpinion', 'Allow')),
      [['authorizers[0].webhook.failurePolicy', 'FieldValueNotSupported', 'supported values: "NoOpinion", "Deny"']],
    ],
    [
      'connection type',
      webhook(goodWebhook.replace('InClusterConfig', 'Other')),
      [['authorizers[0].webhook.connectionInfo.type', 'FieldValueNotSupported']],
    ],
    [
      'file with InClusterConfig',
      webhook(`${goodWebhook}      kubeConfigFile: ""\n`),
      [
        [
          'authorizers[0].webhook.connectionInfo.kubeConfigFile',
          'FieldValueInvalid',
          'can only be set when type=KubeConfigFile',
        ],
      ],
    ],
    [
      'file required',
      webhook(goodWebhook.replace('InClusterConfig', 'KubeConfigFile')),
      [['authorizers[0].webhook.connectionInfo.kubeConfigFile', 'FieldValueRequired']],
    ],
    [
      'file relative',
      webhook(goodWebhook.replace('InClusterConfig', 'PlatformConfigFile\n      platformConfigFile: relative/path')),
      [['authorizers[0].webhook.connectionInfo.platformConfigFile', 'FieldValueInvalid', 'must be an absolute path']],
    ],
    [
      'file missing',
      webhook(goodWebhook.replace('InClusterConfig', 'KubeConfigFile\n      kubeConfigFile: /does/not/exist')),
      [
        [
          'authorizers[0].webhook.connectionInfo.kubeConfigFile',
          'FieldValueInvalid',
          'error loading file: stat /does/not/exist: no such file or directory',
        ],
      ],
    ],
    [
      'file is a directory',
      webhook(
        goodWebhook.replace('InClusterConfig', `KubeConfigFile\n      kubeConfigFile: ${join(dir, 'a-directory')}`),
      ),
      [['authorizers[0].webhook.connectionInfo.kubeConfigFile', 'FieldValueInvalid', 'must be a regular file']],
    ],
    [
      '65 match conditions',
      webhook(
        `${goodWebhook}    matchConditionSubjectAccessReviewVersion: v1\n    matchConditions:\n${Array.from({ length: 65 }, (_, i) => `    - expression: "request.user == 'u${i}'"\n`).join('')}`,
      ),
      [['authorizers[0].webhook.matchConditions', 'FieldValueTooMany', 'must have at most 64 items']],
    ],
    [
      'match condition expressions',
      webhook(
        `${goodWebhook}    matchConditionSubjectAccessReviewVersion: v1\n    matchConditions:\n    - expression: "  "\n    - expression: "request.user"\n    - expression: "has(request.uid)"\n    - expression: "has(request.uid)"\n    - expression: "claims.sub == 'x'"\n    - expression: "request.nosuch == 'x'"\n`,
      ),
      [
        ['authorizers[0].webhook.matchConditions[0].expression', 'FieldValueRequired'],
        [
          'authorizers[0].webhook.matchConditions[1].expression',
          'FieldValueInvalid',
          'must evaluate to bool but got string',
        ],
        ['authorizers[0].webhook.matchConditions[3].expression', 'FieldValueDuplicate'],
        [
          'authorizers[0].webhook.matchConditions[4].expression',
          'FieldValueInvalid',
          "undeclared reference to 'claims'",
        ],
        ['authorizers[0].webhook.matchConditions[5].expression', 'FieldValueInvalid', 'compilation failed'],
      ],
    ],
  ])('%s', (_name, doc, want) => {
    expectErrors(doc, want);
  });
});

describe('EgressSelectorConfiguration', () => {
  const sel = (name: string, conn: string): string => `- name: ${name}\n  connection:\n${conn}`;
  it.each([
    ['empty', EGRESS],
    ['apiserver.k8s.io group', EGRESS.replace('apiserver.config.k8s.io', 'apiserver.k8s.io')],
    [
      'every shape',
      `${EGRESS}egressSelections:\n` +
        sel(
          'cluster',
          `    proxyProtocol: HTTPConnect\n    transport:\n      tcp:\n        url: https://proxy:8131\n        tlsConfig:\n          caBundle: ${certFile}\n          clientCert: ${certFile}\n          clientKey: ${certFile}\n          tlsServerName: proxy\n`,
        ) +
        sel(
          'ControlPlane',
          '    proxyProtocol: GRPC\n    transport:\n      uds:\n        udsName: /run/konnectivity.sock\n      tcp:\n        url: ignored\n',
        ) +
        sel('etcd', '    proxyProtocol: Direct\n'),
    ],
    [
      'master is controlplane',
      `${EGRESS}egressSelections:\n${sel('master', '    proxyProtocol: HTTPConnect\n    transport:\n      tcp:\n        url: http://proxy:8131\n')}`,
    ],
    [
      'HTTPConnect over UDS',
      `${EGRESS}egressSelections:\n${sel('cluster', '    proxyProtocol: HTTPConnect\n    transport:\n      uds:\n        udsName: /run/p.sock\n')}`,
    ],
  ])('valid: %s', (_name, doc) => {
    expect(errorsOf(doc)).toEqual([]);
  });

  const C = 'egressSelections[0].connection';
  it.each<[string, string, [string, string, string?][]]>([
    [
      'direct with transport',
      sel('cluster', '    proxyProtocol: Direct\n    transport: {}\n'),
      [[`${C}.transport`, 'FieldValueInvalid', 'config must be absent for direct connect']],
    ],
    [
      'HTTPConnect without transport',
      sel('cluster', '    proxyProtocol: HTTPConnect\n'),
      [[`${C}.transport`, 'FieldValueRequired', 'transport must be set for HTTPConnect']],
    ],
    [
      'tcp and uds',
      sel(
        'cluster',
        '    proxyProtocol: HTTPConnect\n    transport:\n      tcp: {url: "http://p"}\n      uds: {udsName: /s}\n',
      ),
      [[`${C}.transport.tcp`, 'FieldValueInvalid', 'TCP and UDS cannot both be set']],
    ],
    [
      'neither tcp nor uds',
      sel('cluster', '    proxyProtocol: HTTPConnect\n    transport: {}\n'),
      [[`${C}.transport.tcp`, 'FieldValueRequired', 'One of TCP or UDS must be set']],
    ],
    [
      'GRPC without transport',
      sel('cluster', '    proxyProtocol: GRPC\n'),
      [[`${C}.transport`, 'FieldValueRequired', 'transport must be set for GRPC']],
    ],
    [
      'GRPC without uds',
      sel('cluster', '    proxyProtocol: GRPC\n    transport:\n      tcp: {url: "http://p"}\n'),
      [[`${C}.transport.uds`, 'FieldValueRequired', 'UDS must be set with GRPC']],
    ],
    [
      'empty udsName',
      sel('cluster', '    proxyProtocol: GRPC\n    transport:\n      uds: {}\n'),
      [[`${C}.transport.uds.udsName`, 'FieldValueInvalid', 'must be present for UDS connections']],
    ],
    [
      'unknown protocol',
      sel('cluster', '    proxyProtocol: httpconnect\n'),
      [[`${C}.proxyProtocol`, 'FieldValueNotSupported', 'supported values: "Direct", "HTTPConnect", "GRPC"']],
    ],
    [
      'tls with http',
      sel('cluster', '    proxyProtocol: HTTPConnect\n    transport:\n      tcp: {url: "http://p", tlsConfig: {}}\n'),
      [[`${C}.transport.tcp.tlsConfig`, 'FieldValueInvalid', 'config must not be present when using HTTP']],
    ],
    [
      'https without tls',
      sel('cluster', '    proxyProtocol: HTTPConnect\n    transport:\n      tcp: {url: "https://p"}\n'),
      [[`${C}.transport.tcp.tlsConfig`, 'FieldValueRequired', 'TLSConfig must be present when using HTTPS']],
    ],
    [
      'tls files',
      sel(
        'cluster',
        '    proxyProtocol: HTTPConnect\n    transport:\n      tcp: {url: "https://p", tlsConfig: {caBundle: /nope/ca.crt}}\n',
      ),
      [
        [`${C}.transport.tcp.tlsConfig.caBundle`, 'FieldValueInvalid', 'TLS config ca bundle does not exist'],
        [`${C}.transport.tcp.tlsConfig.clientCert`, 'FieldValueInvalid', 'Using TLS requires clientCert'],
        [`${C}.transport.tcp.tlsConfig.clientKey`, 'FieldValueInvalid', 'Using TLS requires requires clientKey'],
      ],
    ],
    [
      'missing cert and key files',
      sel(
        'cluster',
        '    proxyProtocol: HTTPConnect\n    transport:\n      tcp: {url: "https://p", tlsConfig: {clientCert: /nope/c, clientKey: /nope/k}}\n',
      ),
      [
        [`${C}.transport.tcp.tlsConfig.clientCert`, 'FieldValueInvalid', 'TLS client cert does not exist'],
        [`${C}.transport.tcp.tlsConfig.clientKey`, 'FieldValueInvalid', 'TLS client key does not exist'],
      ],
    ],
    [
      'bad url scheme',
      sel('cluster', '    proxyProtocol: HTTPConnect\n    transport:\n      tcp: {url: "HTTPS://p"}\n'),
      [[`${C}.transport.tcp.url`, 'FieldValueInvalid', 'supported connection protocols are http:// and https://']],
    ],
    [
      'unknown name',
      sel('Master', '    proxyProtocol: Direct\n'),
      [['egressSelections[0].name', 'FieldValueNotSupported', 'supported values: "cluster", "controlplane", "etcd"']],
    ],
    [
      'duplicate name',
      sel('cluster', '    proxyProtocol: Direct\n') + sel('Cluster', '    proxyProtocol: Direct\n'),
      [['egressSelections[1].name', 'FieldValueDuplicate']],
    ],
  ])('%s', (_name, selections, want) => {
    expectErrors(`${EGRESS}egressSelections:\n${selections}`, want);
  });
});

describe('TracingConfiguration', () => {
  it.each([
    '',
    'endpoint: localhost:4317\n',
    'endpoint: "[::1]:4317"\n',
    'endpoint: unix:///run/otel.sock\n',
    'endpoint: unix-abstract://otel\n',
    'endpoint: ""\n',
    'samplingRatePerMillion: 0\n',
    'samplingRatePerMillion: 1000000\n',
  ])('valid: %j', (body) => {
    expect(errorsOf(TRACING + body)).toEqual([]);
  });

  it.each<[string, [string, string, string?][]]>([
    [
      'samplingRatePerMillion: -1\n',
      [['samplingRatePerMillion', 'FieldValueInvalid', 'sampling rate must be positive']],
    ],
    [
      'samplingRatePerMillion: 1000001\n',
      [
        [
          'samplingRatePerMillion',
          'FieldValueInvalid',
          'sampling rate per million must be less than or equal to one million',
        ],
      ],
    ],
    [
      'endpoint: http://otel:4317\n',
      [
        [
          'endpoint',
          'FieldValueInvalid',
          'unsupported scheme: http.  Options are none, dns, unix, or unix-abstract.  See https://github.com/grpc/grpc/blob/master/doc/naming.md',
        ],
      ],
    ],
    [
      'endpoint: otel:port\n',
      [['endpoint', 'FieldValueInvalid', 'parse "dns://otel:port": invalid port ":port" after host']],
    ],
    ['endpoint: unix-abstract:name\n', [['endpoint', 'FieldValueInvalid', 'invalid port']]],
  ])('%j', (body, want) => {
    expectErrors(TRACING + body, want);
  });
});

describe('strict decoding', () => {
  it.each<[string, string, [string, string, string?][]]>([
    [
      'unknown top-level field',
      `${TRACING}endpont: x\n`,
      [['endpont', 'FieldValueForbidden', 'unknown field "endpont"']],
    ],
    [
      'unknown nested field',
      `${AUTHN}jwt:\n- issuer:\n    url: https://i\n    audience: [a]\n  claimMappings: {username: {claim: sub, prefix: ""}}\n`,
      [['jwt[0].issuer.audience', 'FieldValueForbidden']],
    ],
    [
      'duplicate field',
      `${TRACING}endpoint: a:1\nendpoint: b:1\n`,
      [['endpoint', 'FieldValueDuplicate', 'duplicate field "endpoint"']],
    ],
    [
      'wrong type',
      `${TRACING}samplingRatePerMillion: "10"\n`,
      [['samplingRatePerMillion', 'FieldValueTypeInvalid', 'expected an int32']],
    ],
    [
      'bad duration',
      webhook(goodWebhook.replace('3s', '3 seconds')),
      [
        [
          'authorizers[0].webhook.timeout',
          'FieldValueTypeInvalid',
          'time: unknown unit " seconds" in duration "3 seconds"',
        ],
      ],
    ],
    [
      'wrong apiVersion',
      TRACING.replace('v1beta1', 'v1'),
      [['apiVersion', 'FieldValueNotSupported', 'supported values: "apiserver.config.k8s.io/v1beta1"']],
    ],
    [
      'egress under apiserver.k8s.io only for egress',
      TRACING.replace('apiserver.config.k8s.io', 'apiserver.k8s.io'),
      [['apiVersion', 'FieldValueNotSupported']],
    ],
    ['missing apiVersion', 'kind: TracingConfiguration\n', [['apiVersion', 'FieldValueRequired']]],
    [
      'unknown kind',
      'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: Tracing\n',
      [['kind', 'FieldValueNotSupported', 'supported values: "AuthenticationConfiguration"']],
    ],
    ['missing kind', 'apiVersion: apiserver.config.k8s.io/v1beta1\n', [['kind', 'FieldValueRequired']]],
    ['empty document', '', [['', 'FieldValueInvalid', 'empty config data']]],
    ['not YAML', '{ a: [', [['', 'FieldValueInvalid', 'yaml:']]],
  ])('%s', (_name, doc, want) => {
    expectErrors(doc, want);
  });

  it('follows --group-domain', () => {
    const doc = 'apiVersion: apiserver.config.example.com/v1beta1\nkind: TracingConfiguration\n';
    expect(parseConfig(doc, { groupDomain: 'example.com' }).ok).toBe(true);
    expect(parseConfig(doc).ok).toBe(false);
  });

  it('can require one kind', () => {
    const r = parseConfig(TRACING, { expectedKind: 'AuthenticationConfiguration' });
    expect(r.ok ? [] : r.errors.map((e) => e.toString())).toEqual([
      'kind: Unsupported value: "TracingConfiguration": supported values: "AuthenticationConfiguration"',
    ]);
  });
});
