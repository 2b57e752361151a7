import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serializeObject, timeNow } from '@kevents/api';
import type {
  APIResource,
  Authorizer,
  Decision,
  ObjectSchema,
  OpenAPIResource,
  RequestAttributes,
  SelectorRequirement,
  UserInfo,
} from '@kevents/api';
import { FieldPath, invalid as invalidField } from '@kevents/validation';
import type { FieldError } from '@kevents/validation';
import { badRequest, invalid, methodNotAllowed, notAcceptable } from '../errors/api-error.js';
import { acceptsJSON } from '../openapi/accept.js';
import { fieldSelectorRequirements, labelSelectorRequirements } from '../filters/authorization.js';
import type { ValueLimits } from '../registry/value-limits.js';
import { decodeKind, mediaType, parseBodyOffLoop, requireObjectMediaType } from '../handlers/body.js';
import { isPretty, sendJSON, sendJSONText } from '../encoding/respond.js';
import type { Query } from '../request/query.js';
import { parseFieldValidation } from '../request/query.js';
import { parseFieldSelector } from '../selectors/field-selector.js';
import { parseLabelSelector } from '../selectors/label-selector.js';
import { decodeReviewProtobuf, kubernetesProtobufType } from './protobuf.js';
import { maxRequestBodyBytes } from '@kevents/api';
import { selfSubjectAccessReviewSchema, selfSubjectReviewSchema, selfSubjectRulesReviewSchema } from './schemas.js';

/** One rule of a SelfSubjectRulesReview's `resourceRules` (`authorizer.ResourceRuleInfo`). */
export interface ResourceRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
}

/** One rule of a SelfSubjectRulesReview's `nonResourceRules` (`authorizer.NonResourceRuleInfo`). */
export interface NonResourceRule {
  readonly verbs: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** What `authorizer.RuleResolver.RulesFor` answers. */
export interface RulesResult {
  readonly resourceRules: readonly ResourceRule[];
  readonly nonResourceRules: readonly NonResourceRule[];
  /** The rules may not be all the user has (an authorizer that cannot list rules, a webhook). */
  readonly incomplete: boolean;
  readonly evaluationError?: string;
}

/**
 * An authorizer that can list what a user may do in a namespace (k8s.io/apiserver's
 * `authorizer.RuleResolver`). The Authorizer contract does not require it: an authorizer that
 * offers a `rulesFor` method is asked; otherwise {@link rulesOf} answers by its type.
 */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): RulesResult | Promise<RulesResult>;
}

const isRuleResolver = (a: unknown): a is RuleResolver =>
  typeof a === 'object' && a !== null && typeof (a as { rulesFor?: unknown }).rulesFor === 'function';

/**
 * The rules of a user, as kube-apiserver's rule resolvers give them: AlwaysAllow (or no
 * authorizer) allows everything (`*` verbs, groups, resources and non-resource URLs), complete;
 * AlwaysDeny nothing, complete; an authorizer with `rulesFor` answers itself; any other (a
 * webhook, a chain of them) cannot list rules: no rules, `incomplete`.
 */
export async function rulesOf(
  authorizer: Authorizer | undefined,
  user: UserInfo,
  namespace: string,
): Promise<RulesResult> {
  if (isRuleResolver(authorizer)) return authorizer.rulesFor(user, namespace);
  const type = authorizer?.type ?? authorizer?.name;
  if (!authorizer || type === 'AlwaysAllow') {
    return {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    };
  }
  if (type === 'AlwaysDeny') return { resourceRules: [], nonResourceRules: [], incomplete: false };
  return { resourceRules: [], nonResourceRules: [], incomplete: true };
}

/** A review resource as installed: where it is served and what discovery and OpenAPI say of it. */
export interface InstalledReview {
  readonly group: string;
  readonly version: string;
  readonly apiResource: APIResource;
  readonly openAPI: OpenAPIResource;
}

type Obj = Record<string, unknown>;
type ReviewHandler = (body: Obj, user: UserInfo) => Promise<Obj> | Obj;

interface ReviewKind {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly singularName: string;
  readonly kind: string;
  readonly schema: ObjectSchema;
  readonly create: ReviewHandler;
}

const allMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `apiequality.Semantic.DeepEqual(metav1.ObjectMeta{}, meta)` with managedFields ignored. */
function emptyMeta(meta: unknown): boolean {
  if (!isObj(meta)) return true;
  return Object.entries(meta).every(
    ([k, v]) =>
      k === 'managedFields' ||
      v === undefined ||
      v === null ||
      v === '' ||
      v === 0 ||
      (Array.isArray(v) && v.length === 0) ||
      (isObj(v) && Object.keys(v).length === 0),
  );
}

/** A selector given to a SelfSubjectAccessReview, as `ResourceAttributesFrom` reads it. */
function selectorOf(
  attrs: unknown,
  kind: 'field' | 'label',
): { requirements?: SelectorRequirement[]; error: boolean; partial: boolean } {
  if (!isObj(attrs)) return { error: false, partial: false };
  let requirements: SelectorRequirement[] | undefined;
  let error = false;
  const raw = str(attrs['rawSelector']);
  if (raw !== '') {
    try {
      if (kind === 'field') parseFieldSelector(raw);
      else parseLabelSelector(raw);
      requirements = kind === 'field' ? fieldSelectorRequirements(raw) : labelSelectorRequirements(raw);
    } catch {
      error = true;
    }
  }
  const given = Array.isArray(attrs['requirements']) ? (attrs['requirements'] as Obj[]) : [];
  if (given.length > 0) {
    error = false;
    const out: SelectorRequirement[] = [];
    for (const r of given) {
      const operator = str(r['operator']);
      const values = Array.isArray(r['values']) ? (r['values'] as string[]) : [];
      const ok =
        kind === 'label'
          ? ['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(operator)
          : (operator === 'In' || operator === 'NotIn') && values.length === 1;
      if (!ok) {
        error = true;
        continue;
      }
      out.push({
        key: str(r['key']),
        operator: operator as SelectorRequirement['operator'],
        ...(values.length ? { values: [...values] } : {}),
      });
    }
    requirements = out.length ? out : undefined;
  }
  return { ...(requirements ? { requirements } : {}), error, partial: error && requirements !== undefined };
}

/** `authorizationutil.BuildEvaluationError`: the authorizer's error, then the selectors that did not parse. */
function evaluationError(
  err: Error | undefined,
  field: { error: boolean; partial: boolean },
  label: typeof field,
): string {
  const out: string[] = [];
  if (err) out.push(err.message);
  if (field.error)
    out.push(
      `spec.resourceAttributes.fieldSelector ${field.partial ? 'partially ignored' : 'ignored'} due to parse error`,
    );
  if (label.error)
    out.push(
      `spec.resourceAttributes.labelSelector ${label.partial ? 'partially ignored' : 'ignored'} due to parse error`,
    );
  return out.join('; ');
}

/** Asks the authorizer, an exception counting as a NoOpinion with that error (as a Go authorizer's err). */
async function decide(authorizer: Authorizer | undefined, attrs: RequestAttributes): Promise<Decision> {
  if (!authorizer) return { decision: 'Allow', reason: '' };
  try {
    return await authorizer.authorize(attrs);
  } catch (e) {
    return { decision: 'NoOpinion', reason: '', error: e instanceof Error ? e : new Error(String(e)) };
  }
}

/** pkg/registry/authorization/selfsubjectaccessreview `REST.Create`. */
function selfSubjectAccessReview(authorizer: Authorizer | undefined): ReviewHandler {
  return async (review, user) => {
    const spec = isObj(review['spec']) ? review['spec'] : {};
    const ra = isObj(spec['resourceAttributes']) ? spec['resourceAttributes'] : undefined;
    const nra = isObj(spec['nonResourceAttributes']) ? spec['nonResourceAttributes'] : undefined;
    const errs: FieldError[] = [];
    const specPath = FieldPath.root('spec');
    if (ra && nra)
      errs.push(
        invalidField(
          specPath.child('nonResourceAttributes'),
          nra,
          'cannot be specified in combination with resourceAttributes',
        ),
      );
    if (!ra && !nra)
      errs.push(
        invalidField(
          specPath.child('resourceAttributes'),
          null,
          'exactly one of nonResourceAttributes or resourceAttributes must be specified',
        ),
      );
    if (!emptyMeta(review['metadata']))
      errs.push(invalidField(FieldPath.root('metadata'), review['metadata'], 'must be empty'));
    if (errs.length) throw invalid({ group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview' }, '', errs);

    const noSelector: ReturnType<typeof selectorOf> = { error: false, partial: false };
    const field = ra ? selectorOf(ra['fieldSelector'], 'field') : noSelector;
    const label = ra ? selectorOf(ra['labelSelector'], 'label') : noSelector;
    const attrs: RequestAttributes = ra
      ? {
          user,
          verb: str(ra['verb']),
          isResourceRequest: true,
          path: '',
          apiGroup: str(ra['group']),
          apiVersion: str(ra['version']) || '*',
          resource: str(ra['resource']),
          subresource: str(ra['subresource']),
          namespace: str(ra['namespace']),
          name: str(ra['name']),
          ...(field.requirements ? { fieldSelector: field.requirements } : {}),
          ...(label.requirements ? { labelSelector: label.requirements } : {}),
        }
      : {
          user,
          verb: str(nra!['verb']),
          isResourceRequest: false,
          path: str(nra!['path']),
          apiGroup: '',
          apiVersion: '',
          resource: '',
          subresource: '',
          namespace: '',
          name: '',
        };
    const d = await decide(authorizer, attrs);
    return {
      ...review,
      status: {
        allowed: d.decision === 'Allow',
        denied: d.decision === 'Deny',
        reason: d.reason,
        evaluationError: evaluationError(d.error, field, label),
      },
    };
  };
}

/** pkg/registry/authorization/selfsubjectrulesreview `REST.Create` (a new object: only the status). */
function selfSubjectRulesReview(authorizer: Authorizer | undefined): ReviewHandler {
  return async (review, user) => {
    const spec = isObj(review['spec']) ? review['spec'] : {};
    const namespace = str(spec['namespace']);
    if (namespace === '') throw badRequest('no namespace on request');
    let rules: RulesResult;
    try {
      rules = await rulesOf(authorizer, user, namespace);
    } catch (e) {
      rules = {
        resourceRules: [],
        nonResourceRules: [],
        incomplete: true,
        evaluationError: String((e as Error).message ?? e),
      };
    }
    return {
      kind: review['kind'],
      apiVersion: review['apiVersion'],
      metadata: {},
      spec: {},
      status: {
        resourceRules: rules.resourceRules.map((r) => ({ ...r })),
        nonResourceRules: rules.nonResourceRules.map((r) => ({ ...r })),
        incomplete: rules.incomplete,
        ...(rules.evaluationError ? { evaluationError: rules.evaluationError } : {}),
      },
    };
  };
}

/** pkg/registry/authentication/selfsubjectreview `REST.Create`: who the request's user is (after impersonation). */
const selfSubjectReview: ReviewHandler = (review, user) => ({
  kind: review['kind'],
  apiVersion: review['apiVersion'],
  metadata: { creationTimestamp: timeNow() },
  status: {
    userInfo: {
      username: user.username,
      ...(user.uid ? { uid: user.uid } : {}),
      groups: [...user.groups],
      ...(user.extra ? { extra: Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]])) } : {}),
    },
  },
});

/** Every self-subject review kube-apiserver serves, and the SelfSubjectReview versions kubectl 1.26–1.35 ask for. */
function reviewKinds(authorizer: Authorizer | undefined): ReviewKind[] {
  // kube-apiserver's group order: authentication.k8s.io before authorization.k8s.io.
  return [
    ...['v1', 'v1beta1', 'v1alpha1'].map((version): ReviewKind => ({
      group: 'authentication.k8s.io',
      version,
      resource: 'selfsubjectreviews',
      singularName: 'selfsubjectreview',
      kind: 'SelfSubjectReview',
      schema: selfSubjectReviewSchema(version),
      create: selfSubjectReview,
    })),
    {
      group: 'authorization.k8s.io',
      version: 'v1',
      resource: 'selfsubjectaccessreviews',
      singularName: 'selfsubjectaccessreview',
      kind: 'SelfSubjectAccessReview',
      schema: selfSubjectAccessReviewSchema,
      create: selfSubjectAccessReview(authorizer),
    },
    {
      group: 'authorization.k8s.io',
      version: 'v1',
      resource: 'selfsubjectrulesreviews',
      singularName: 'selfsubjectrulesreview',
      kind: 'SelfSubjectRulesReview',
      schema: selfSubjectRulesReviewSchema,
      create: selfSubjectRulesReview(authorizer),
    },
  ];
}

/**
 * Installs the self-subject reviews as kube-apiserver serves them, create-only and cluster-scoped:
 * `authorization.k8s.io/v1` SelfSubjectAccessReview (`kubectl auth can-i`) and
 * SelfSubjectRulesReview (`kubectl auth can-i --list`), and `authentication.k8s.io` SelfSubjectReview
 * at v1, v1beta1 and v1alpha1 (`kubectl auth whoami` asks v1, then v1beta1, then v1alpha1). The
 * requests pass the server's filter chain like any other (authentication, impersonation, then
 * the authorizer asked to `create` the review); a review then answers for the request's user,
 * access reviews through the same `authorizer`. Answers 201 with the review, as the create
 * handler does; other methods are 405. A body of more values than `opts.valueLimits` allow
 * (default `defaultValueLimits`) is a 413.
 */
export function installSelfSubjectReviews(
  app: FastifyInstance,
  opts: { readonly authorizer?: Authorizer; readonly valueLimits?: ValueLimits },
): InstalledReview[] {
  const installed: InstalledReview[] = [];
  // Protobuf bodies stay bytes (every other body is text); handlers other than the reviews refuse the type.
  if (!app.hasContentTypeParser(kubernetesProtobufType)) {
    app.addContentTypeParser(
      kubernetesProtobufType,
      { parseAs: 'buffer', bodyLimit: maxRequestBodyBytes },
      (_req: FastifyRequest, body: Buffer, done: (err: null, body: Buffer) => void) => done(null, body),
    );
  }
  for (const k of reviewKinds(opts.authorizer)) {
    const groupVersion = `${k.group}/${k.version}`;
    const url = `/apis/${groupVersion}/${k.resource}`;
    const handler = async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
      const query = (req.query ?? {}) as Query;
      // kubectl 1.34+ sends its reviews as Kubernetes protobuf and accepts JSON back.
      if (!acceptsJSON(req.headers.accept)) throw notAcceptable(['application/json']);
      let decoded: { object: Obj; warnings: string[] };
      if (mediaType(req.headers['content-type']) === kubernetesProtobufType) {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.from(String(req.body ?? ''), 'latin1');
        decoded = {
          object: decodeReviewProtobuf(body, { groupVersion, kind: k.kind }, opts.valueLimits),
          warnings: [],
        };
      } else {
        requireObjectMediaType(req.headers['content-type']);
        const unrecognized = { unrecognizedKind: k.kind, ...(opts.valueLimits && { valueLimits: opts.valueLimits }) };
        const parsed = await parseBodyOffLoop(req.body, req.headers['content-type'], unrecognized);
        const expected = { groupVersion, kind: k.kind };
        decoded = decodeKind<Obj>(parsed, k.schema, expected, parseFieldValidation(query), unrecognized);
      }
      const review: Obj = { ...decoded.object, kind: k.kind, apiVersion: groupVersion };
      const out = await k.create(review, req.user);
      const text = serializeObject(out, k.schema);
      if (isPretty(req)) return sendJSON(reply, 201, JSON.parse(text), true, decoded.warnings);
      return sendJSONText(reply, 201, text, { warnings: decoded.warnings });
    };
    for (const method of allMethods) {
      app.route({
        method,
        url,
        exposeHeadRoute: false,
        handler:
          method === 'POST'
            ? handler
            : async () => {
                throw methodNotAllowed();
              },
      });
    }
    installed.push({
      group: k.group,
      version: k.version,
      apiResource: {
        name: k.resource,
        singularName: k.singularName,
        namespaced: false,
        kind: k.kind,
        verbs: ['create'],
      },
      openAPI: { resource: k.resource, kind: k.kind, namespaced: false, schema: k.schema, verbs: ['create'] },
    });
  }
  return installed;
}
