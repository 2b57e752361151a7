import { objectMetaSchema } from '@kevents/api';
import type { Emit, FieldSchema, FieldType, ObjectSchema } from '@kevents/api';

/*
 * authorization.k8s.io/v1 SelfSubjectAccessReview and SelfSubjectRulesReview, and
 * authentication.k8s.io SelfSubjectReview (v1, v1beta1, v1alpha1), in Go field order
 * (k8s.io/api/authorization/v1/types.go, k8s.io/api/authentication/*\/types.go), with the
 * descriptions of Kubernetes' OpenAPI document (types_swagger_doc_generated.go).
 */

const f = (name: string, type: FieldType, emit: Emit, description: string, required = false): FieldSchema => ({
  name,
  type,
  emit,
  description,
  ...(required ? { required } : {}),
});
const str: FieldType = { kind: 'string' };
const bool: FieldType = { kind: 'boolean' };
const strings: FieldType = { kind: 'array', items: str };
const obj = (schema: () => ObjectSchema): FieldType => ({ kind: 'object', schema });
const conventions = 'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md';

const typeMeta: FieldSchema[] = [
  f(
    'kind',
    str,
    'omitempty',
    `Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ${conventions}#types-kinds`,
  ),
  f(
    'apiVersion',
    str,
    'omitempty',
    `APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: ${conventions}#resources`,
  ),
];
const metadata = (description: string): FieldSchema =>
  f(
    'metadata',
    obj(() => objectMetaSchema),
    'always',
    description,
  );
const listMetadata = metadata(`Standard list metadata. More info: ${conventions}#metadata`);

const selectorAttributesText = (kind: string): string =>
  `${kind}SelectorAttributes indicates a ${kind.toLowerCase()} limited access. Webhook authors are encouraged to * ensure rawSelector and requirements are not both set * consider the requirements field if set * not try to parse or consider the rawSelector field if set. This is to avoid another CVE-2022-2880 (i.e. getting different systems to agree on how exactly to parse a query is not something we want), see https://www.oxeye.io/resources/golang-parameter-smuggling-attack for more details. For the *SubjectAccessReview endpoints of the kube-apiserver: * If rawSelector is empty and requirements are empty, the request is not limited. * If rawSelector is present and requirements are empty, the rawSelector will be parsed and limited if the parsing succeeds. * If rawSelector is empty and requirements are present, the requirements should be honored * If rawSelector is present and requirements are present, the request is invalid.`;
const rawSelectorText =
  "rawSelector is the serialization of a field selector that would be included in a query parameter. Webhook implementations are encouraged to ignore rawSelector. The kube-apiserver's *SubjectAccessReview will parse the rawSelector as long as the requirements are not present.";
const requirementsText = (kind: string): string =>
  `requirements is the parsed interpretation of a ${kind} selector. All requirements must be met for a resource instance to match the selector. Webhook implementations should handle requirements, but how to handle them is up to the webhook. Since requirements can only limit the request, it is safe to authorize as unlimited request if the requirements are not understood.`;

export const fieldSelectorRequirementSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement',
  goType: 'FieldSelectorRequirement',
  description:
    'FieldSelectorRequirement is a selector that contains values, a key, and an operator that relates the key and values.',
  fields: [
    f('key', str, 'always', 'key is the field selector key that the requirement applies to.', true),
    f(
      'operator',
      str,
      'always',
      "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. The list of operators may grow in the future.",
      true,
    ),
    f(
      'values',
      strings,
      'omitempty',
      'values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty.',
    ),
  ],
};

export const labelSelectorRequirementSchema: ObjectSchema = {
  id: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement',
  goType: 'LabelSelectorRequirement',
  description:
    'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.',
  fields: [
    f('key', str, 'always', 'key is the label key that the selector applies to.', true),
    f(
      'operator',
      str,
      'always',
      "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist.",
      true,
    ),
    f(
      'values',
      strings,
      'omitempty',
      'values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. This array is replaced during a strategic merge patch.',
    ),
  ],
};

const az = 'io.k8s.api.authorization.v1';

export const fieldSelectorAttributesSchema: ObjectSchema = {
  id: `${az}.FieldSelectorAttributes`,
  goType: 'FieldSelectorAttributes',
  description: selectorAttributesText('Field'),
  fields: [
    f('rawSelector', str, 'omitempty', rawSelectorText),
    f(
      'requirements',
      { kind: 'array', items: obj(() => fieldSelectorRequirementSchema) },
      'omitempty',
      requirementsText('field'),
    ),
  ],
};

export const labelSelectorAttributesSchema: ObjectSchema = {
  id: `${az}.LabelSelectorAttributes`,
  goType: 'LabelSelectorAttributes',
  description: selectorAttributesText('Label'),
  fields: [
    f('rawSelector', str, 'omitempty', rawSelectorText),
    f(
      'requirements',
      { kind: 'array', items: obj(() => labelSelectorRequirementSchema) },
      'omitempty',
      requirementsText('label'),
    ),
  ],
};

export const resourceAttributesSchema: ObjectSchema = {
  id: `${az}.ResourceAttributes`,
  goType: 'ResourceAttributes',
  description:
    'ResourceAttributes includes the authorization attributes available for resource requests to the Authorizer interface',
  fields: [
    f(
      'namespace',
      str,
      'omitempty',
      'Namespace is the namespace of the action being requested.  Currently, there is no distinction between no namespace and all namespaces "" (empty) is defaulted for LocalSubjectAccessReviews "" (empty) is empty for cluster-scoped resources "" (empty) means "all" for namespace scoped resources from a SubjectAccessReview or SelfSubjectAccessReview',
    ),
    f(
      'verb',
      str,
      'omitempty',
      'Verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy.  "*" means all.',
    ),
    f('group', str, 'omitempty', 'Group is the API Group of the Resource.  "*" means all.'),
    f('version', str, 'omitempty', 'Version is the API Version of the Resource.  "*" means all.'),
    f('resource', str, 'omitempty', 'Resource is one of the existing resource types.  "*" means all.'),
    f('subresource', str, 'omitempty', 'Subresource is one of the existing resource types.  "" means none.'),
    f(
      'name',
      str,
      'omitempty',
      'Name is the name of the resource being requested for a "get" or deleted for a "delete". "" (empty) means all.',
    ),
    f(
      'fieldSelector',
      obj(() => fieldSelectorAttributesSchema),
      'omitempty',
      'fieldSelector describes the limitation on access based on field.  It can only limit access, not broaden it.',
    ),
    f(
      'labelSelector',
      obj(() => labelSelectorAttributesSchema),
      'omitempty',
      'labelSelector describes the limitation on access based on labels.  It can only limit access, not broaden it.',
    ),
  ],
};

export const nonResourceAttributesSchema: ObjectSchema = {
  id: `${az}.NonResourceAttributes`,
  goType: 'NonResourceAttributes',
  description:
    'NonResourceAttributes includes the authorization attributes available for non-resource requests to the Authorizer interface',
  fields: [
    f('path', str, 'omitempty', 'Path is the URL path of the request'),
    f('verb', str, 'omitempty', 'Verb is the standard HTTP verb'),
  ],
};

export const selfSubjectAccessReviewSpecSchema: ObjectSchema = {
  id: `${az}.SelfSubjectAccessReviewSpec`,
  goType: 'SelfSubjectAccessReviewSpec',
  description:
    'SelfSubjectAccessReviewSpec is a description of the access request.  Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set',
  fields: [
    f(
      'resourceAttributes',
      obj(() => resourceAttributesSchema),
      'omitempty',
      'ResourceAuthorizationAttributes describes information for a resource access request',
    ),
    f(
      'nonResourceAttributes',
      obj(() => nonResourceAttributesSchema),
      'omitempty',
      'NonResourceAttributes describes information for a non-resource access request',
    ),
  ],
};

export const subjectAccessReviewStatusSchema: ObjectSchema = {
  id: `${az}.SubjectAccessReviewStatus`,
  goType: 'SubjectAccessReviewStatus',
  description: 'SubjectAccessReviewStatus',
  fields: [
    f('allowed', bool, 'always', 'Allowed is required. True if the action would be allowed, false otherwise.', true),
    f(
      'denied',
      bool,
      'omitempty',
      'Denied is optional. True if the action would be denied, otherwise false. If both allowed is false and denied is false, then the authorizer has no opinion on whether to authorize the action. Denied may not be true if Allowed is true.',
    ),
    f('reason', str, 'omitempty', 'Reason is optional.  It indicates why a request was allowed or denied.'),
    f(
      'evaluationError',
      str,
      'omitempty',
      'EvaluationError is an indication that some error occurred during the authorization check. It is entirely possible to get an error and be able to continue determine authorization status in spite of it. For instance, RBAC can be missing a role, but enough roles are still present and bound to reason about the request.',
    ),
  ],
};

export const selfSubjectAccessReviewSchema: ObjectSchema = {
  id: `${az}.SelfSubjectAccessReview`,
  goType: 'SelfSubjectAccessReview',
  description:
    'SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in a spec.namespace means "in all namespaces".  Self is a special case, because users should always be able to check whether they can perform an action',
  gvk: { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectAccessReview' },
  fields: [
    ...typeMeta,
    listMetadata,
    f(
      'spec',
      obj(() => selfSubjectAccessReviewSpecSchema),
      'always',
      'Spec holds information about the request being evaluated.  user and groups must be empty',
      true,
    ),
    f(
      'status',
      obj(() => subjectAccessReviewStatusSchema),
      'always',
      'Status is filled in by the server and indicates whether the request is allowed or not',
    ),
  ],
};

export const resourceRuleSchema: ObjectSchema = {
  id: `${az}.ResourceRule`,
  goType: 'ResourceRule',
  description:
    "ResourceRule is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.",
  fields: [
    f(
      'verbs',
      strings,
      'always',
      'Verb is a list of kubernetes resource API verbs, like: get, list, watch, create, update, delete, proxy.  "*" means all.',
      true,
    ),
    f(
      'apiGroups',
      strings,
      'omitempty',
      'APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed.  "*" means all.',
    ),
    f(
      'resources',
      strings,
      'omitempty',
      'Resources is a list of resources this rule applies to.  "*" means all in the specified apiGroups.\n "*/foo" represents the subresource \'foo\' for all resources in the specified apiGroups.',
    ),
    f(
      'resourceNames',
      strings,
      'omitempty',
      'ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.  "*" means all.',
    ),
  ],
};

export const nonResourceRuleSchema: ObjectSchema = {
  id: `${az}.NonResourceRule`,
  goType: 'NonResourceRule',
  description: 'NonResourceRule holds information that describes a rule for the non-resource',
  fields: [
    f(
      'verbs',
      strings,
      'always',
      'Verb is a list of kubernetes non-resource API verbs, like: get, post, put, delete, patch, head, options.  "*" means all.',
      true,
    ),
    f(
      'nonResourceURLs',
      strings,
      'omitempty',
      'NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path.  "*" means all.',
    ),
  ],
};

export const selfSubjectRulesReviewSpecSchema: ObjectSchema = {
  id: `${az}.SelfSubjectRulesReviewSpec`,
  goType: 'SelfSubjectRulesReviewSpec',
  description: 'SelfSubjectRulesReviewSpec defines the specification for SelfSubjectRulesReview.',
  fields: [f('namespace', str, 'omitempty', 'Namespace to evaluate rules for. Required.')],
};

export const subjectRulesReviewStatusSchema: ObjectSchema = {
  id: `${az}.SubjectRulesReviewStatus`,
  goType: 'SubjectRulesReviewStatus',
  description:
    "SubjectRulesReviewStatus contains the result of a rules check. This check can be incomplete depending on the set of authorizers the server is configured with and any errors experienced during evaluation. Because authorization rules are additive, if a rule appears in a list it's safe to assume the subject has that permission, even if that list is incomplete.",
  fields: [
    f(
      'resourceRules',
      { kind: 'array', items: obj(() => resourceRuleSchema) },
      'always',
      "ResourceRules is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.",
      true,
    ),
    f(
      'nonResourceRules',
      { kind: 'array', items: obj(() => nonResourceRuleSchema) },
      'always',
      "NonResourceRules is the list of actions the subject is allowed to perform on non-resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.",
      true,
    ),
    f(
      'incomplete',
      bool,
      'always',
      "Incomplete is true when the rules returned by this call are incomplete. This is most commonly encountered when an authorizer, such as an external authorizer, doesn't support rules evaluation.",
      true,
    ),
    f(
      'evaluationError',
      str,
      'omitempty',
      "EvaluationError can appear in combination with Rules. It indicates an error occurred during rule evaluation, such as an authorizer that doesn't support rule evaluation, and that ResourceRules and/or NonResourceRules may be incomplete.",
    ),
  ],
};

export const selfSubjectRulesReviewSchema: ObjectSchema = {
  id: `${az}.SelfSubjectRulesReview`,
  goType: 'SelfSubjectRulesReview',
  description:
    "SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace. The returned list of actions may be incomplete depending on the server's authorization mode, and any errors experienced during the evaluation. SelfSubjectRulesReview should be used by UIs to show/hide actions, or to quickly let an end user reason about their permissions. It should NOT Be used by external systems to drive authorization decisions as this raises confused deputy, cache lifetime/revocation, and correctness concerns. SubjectAccessReview, and LocalAccessReview are the correct way to defer authorization decisions to the API server.",
  gvk: { group: 'authorization.k8s.io', version: 'v1', kind: 'SelfSubjectRulesReview' },
  fields: [
    ...typeMeta,
    listMetadata,
    f(
      'spec',
      obj(() => selfSubjectRulesReviewSpecSchema),
      'always',
      'Spec holds information about the request being evaluated.',
      true,
    ),
    f(
      'status',
      obj(() => subjectRulesReviewStatusSchema),
      'always',
      'Status is filled in by the server and indicates the set of actions a user can perform.',
    ),
  ],
};

export const userInfoSchema: ObjectSchema = {
  // Every version's status names the v1 UserInfo, as Kubernetes' definitions do.
  id: 'io.k8s.api.authentication.v1.UserInfo',
  goType: 'UserInfo',
  description: 'UserInfo holds the information about the user needed to implement the user.Info interface.',
  fields: [
    f('username', str, 'omitempty', 'The name that uniquely identifies this user among all active users.'),
    f(
      'uid',
      str,
      'omitempty',
      'A unique value that identifies this user across time. If this user is deleted and another user by the same name is added, they will have different UIDs.',
    ),
    f('groups', strings, 'omitempty', 'The names of groups this user is a part of.'),
    f(
      'extra',
      { kind: 'map', values: strings },
      'omitempty',
      'Any additional information provided by the authenticator.',
    ),
  ],
};

/** authentication.k8s.io SelfSubjectReview of one version (v1, v1beta1, v1alpha1: one shape, three definitions), made once. */
export function selfSubjectReviewSchema(version: string): ObjectSchema {
  let schema = selfSubjectReviewSchemas.get(version);
  if (!schema) selfSubjectReviewSchemas.set(version, (schema = makeSelfSubjectReviewSchema(version)));
  return schema;
}
const selfSubjectReviewSchemas = new Map<string, ObjectSchema>();

function makeSelfSubjectReviewSchema(version: string): ObjectSchema {
  const status: ObjectSchema = {
    id: `io.k8s.api.authentication.${version}.SelfSubjectReviewStatus`,
    goType: 'SelfSubjectReviewStatus',
    description: 'SelfSubjectReviewStatus is filled by the kube-apiserver and sent back to a user.',
    fields: [
      f(
        'userInfo',
        obj(() => userInfoSchema),
        'always',
        'User attributes of the user making this request.',
      ),
    ],
  };
  return {
    id: `io.k8s.api.authentication.${version}.SelfSubjectReview`,
    goType: 'SelfSubjectReview',
    description:
      'SelfSubjectReview contains the user information that the kube-apiserver has about the user making this request. When using impersonation, users will receive the user info of the user being impersonated.  If impersonation or request header authentication is used, any extra keys will have their case ignored and returned as lowercase.',
    gvk: { group: 'authentication.k8s.io', version, kind: 'SelfSubjectReview' },
    fields: [
      ...typeMeta,
      metadata(`Standard object's metadata. More info: ${conventions}#metadata`),
      f(
        'status',
        obj(() => status),
        'always',
        'Status is filled in by the server with the user attributes.',
      ),
    ],
  };
}
