/** The shape of one field in a config document, as the strict decoder reads it. */
export type FieldShape = 'string' | 'bool' | 'int32' | 'duration' | { object: ObjectShape } | { list: FieldShape };

/** Field name (serialized) to shape; any other key is an unknown field. */
export type ObjectShape = { readonly [field: string]: FieldShape };

const claimOrExpression: ObjectShape = { claim: 'string', expression: 'string' };
const prefixed: ObjectShape = { claim: 'string', prefix: 'string', expression: 'string' };

const jwtAuthenticator: ObjectShape = {
  issuer: {
    object: {
      url: 'string',
      discoveryURL: 'string',
      certificateAuthority: 'string',
      audiences: { list: 'string' },
      audienceMatchPolicy: 'string',
      egressSelectorType: 'string',
    },
  },
  claimValidationRules: {
    list: { object: { claim: 'string', requiredValue: 'string', expression: 'string', message: 'string' } },
  },
  claimMappings: {
    object: {
      username: { object: prefixed },
      groups: { object: prefixed },
      uid: { object: claimOrExpression },
      extra: { list: { object: { key: 'string', valueExpression: 'string' } } },
    },
  },
  userValidationRules: { list: { object: { expression: 'string', message: 'string' } } },
};

const typeMeta: ObjectShape = { apiVersion: 'string', kind: 'string' };

/** AuthenticationConfiguration v1beta1. */
export const authenticationShape: ObjectShape = {
  ...typeMeta,
  jwt: { list: { object: jwtAuthenticator } },
  anonymous: { object: { enabled: 'bool', conditions: { list: { object: { path: 'string' } } } } },
};

/** AuthorizationConfiguration v1beta1 (both connectionInfo spellings). */
export const authorizationShape: ObjectShape = {
  ...typeMeta,
  authorizers: {
    list: {
      object: {
        type: 'string',
        name: 'string',
        webhook: {
          object: {
            authorizedTTL: 'duration',
            cacheAuthorizedRequests: 'bool',
            unauthorizedTTL: 'duration',
            cacheUnauthorizedRequests: 'bool',
            timeout: 'duration',
            subjectAccessReviewVersion: 'string',
            matchConditionSubjectAccessReviewVersion: 'string',
            failurePolicy: 'string',
            connectionInfo: { object: { type: 'string', kubeConfigFile: 'string', platformConfigFile: 'string' } },
            matchConditions: { list: { object: { expression: 'string' } } },
          },
        },
      },
    },
  },
};

/** EgressSelectorConfiguration v1beta1. */
export const egressShape: ObjectShape = {
  ...typeMeta,
  egressSelections: {
    list: {
      object: {
        name: 'string',
        connection: {
          object: {
            proxyProtocol: 'string',
            transport: {
              object: {
                tcp: {
                  object: {
                    url: 'string',
                    tlsConfig: {
                      object: {
                        caBundle: 'string',
                        clientKey: 'string',
                        clientCert: 'string',
                        tlsServerName: 'string',
                      },
                    },
                  },
                },
                uds: { object: { udsName: 'string' } },
              },
            },
          },
        },
      },
    },
  },
};

/** TracingConfiguration v1beta1 (component-base fields inline). */
export const tracingShape: ObjectShape = { ...typeMeta, endpoint: 'string', samplingRatePerMillion: 'int32' };
