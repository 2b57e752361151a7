import { Environment } from '@marcbachmann/cel-js';
import { registerLists, registerRegex, registerSets, registerStrings } from './extensions.js';

/** The three CEL environments of the apiserver configuration kinds. */
export type CelEnvironmentName = 'claims' | 'user' | 'request';

/** Structural limits applied while parsing: large or deeply nested expressions are rejected. */
export const celParseLimits = {
  maxAstNodes: 10_000,
  maxDepth: 100,
  maxListElements: 1_000,
  maxMapEntries: 1_000,
  maxCallArguments: 32,
} as const;

function baseEnvironment(): Environment {
  const env = new Environment({
    enableOptionalTypes: true,
    homogeneousAggregateLiterals: true,
    limits: celParseLimits,
  });
  registerStrings(env);
  registerRegex(env);
  registerLists(env);
  registerSets(env);
  return env;
}

const listOfString = 'list<string>';
const extraMap = 'map<string, list<string>>';

function claimsEnvironment(): Environment {
  return baseEnvironment().registerVariable('claims', 'map<string, dyn>');
}

function userEnvironment(): Environment {
  return baseEnvironment()
    .registerType({
      name: 'kubernetes.UserInfo',
      schema: { username: 'string', uid: 'string', groups: listOfString, extra: extraMap },
    })
    .registerVariable('user', 'kubernetes.UserInfo');
}

function requestEnvironment(): Environment {
  const selector = { key: 'string', operator: 'string', values: listOfString };
  const selectorAttributes = { rawSelector: 'string', requirements: 'list<kubernetes.SelectorRequirement>' };
  return baseEnvironment()
    .registerType({ name: 'kubernetes.SelectorRequirement', schema: selector })
    .registerType({ name: 'kubernetes.FieldSelectorAttributes', schema: selectorAttributes })
    .registerType({ name: 'kubernetes.LabelSelectorAttributes', schema: selectorAttributes })
    .registerType({
      name: 'kubernetes.ResourceAttributes',
      schema: {
        namespace: 'string',
        verb: 'string',
        group: 'string',
        version: 'string',
        resource: 'string',
        subresource: 'string',
        name: 'string',
        fieldSelector: 'kubernetes.FieldSelectorAttributes',
        labelSelector: 'kubernetes.LabelSelectorAttributes',
      },
    })
    .registerType({ name: 'kubernetes.NonResourceAttributes', schema: { path: 'string', verb: 'string' } })
    .registerType({
      name: 'kubernetes.SubjectAccessReviewSpec',
      schema: {
        resourceAttributes: 'kubernetes.ResourceAttributes',
        nonResourceAttributes: 'kubernetes.NonResourceAttributes',
        user: 'string',
        groups: listOfString,
        extra: extraMap,
        uid: 'string',
      },
    })
    .registerVariable('request', 'kubernetes.SubjectAccessReviewSpec');
}

const environments = new Map<CelEnvironmentName, Environment>();

/** The shared, lazily built environment of that name. */
export function celEnvironment(name: CelEnvironmentName): Environment {
  let env = environments.get(name);
  if (!env) {
    env = name === 'claims' ? claimsEnvironment() : name === 'user' ? userEnvironment() : requestEnvironment();
    environments.set(name, env);
  }
  return env;
}
