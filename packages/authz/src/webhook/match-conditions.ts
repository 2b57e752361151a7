import { compile } from '@kevents/cel';
import type { CompiledExpression } from '@kevents/cel';
import { AuthorizationError, aggregateMessage } from '../errors.js';
import type { SubjectAccessReviewSpec } from './subject-access-review.js';

/** Outcome of {@link MatchConditions.evaluate}: whether to call the webhook, and any errors seen. */
export interface MatchResult {
  /** Every condition was true: call the webhook. */
  readonly matches: boolean;
  /** A condition was false: skip the webhook (errors or not). */
  readonly excluded: boolean;
  /** The aggregated evaluation errors, if any. */
  readonly error?: AuthorizationError;
}

/**
 * A webhook's `matchConditions`, compiled once in the `request` CEL environment
 * (pkg/authorization/cel). Evaluated in order: an error is collected and evaluation goes on; the
 * first `false` is no match at once (errors or not); all true is a match; no false but errors is
 * an error.
 */
export class MatchConditions {
  readonly #compiled: CompiledExpression[];
  readonly #selectors: boolean;

  /** @throws CelError when an expression does not compile (the config validation reports these first). */
  constructor(expressions: readonly string[]) {
    this.#compiled = expressions.map((e) => compile('request', e, { resultType: 'bool', reportActualType: true }));
    this.#selectors = expressions.some((e) => /\b(fieldSelector|labelSelector)\b/.test(e));
  }

  get length(): number {
    return this.#compiled.length;
  }

  evaluate(spec: SubjectAccessReviewSpec): MatchResult {
    const request = celRequest(spec, this.#selectors);
    const errors: Error[] = [];
    for (const c of this.#compiled) {
      let v: unknown;
      try {
        v = c.evaluate({ request });
      } catch (e) {
        errors.push(
          new Error(
            `cel evaluation error: expression '${c.expression}' resulted in error: ${(e as Error).message ?? String(e)}`,
          ),
        );
        continue;
      }
      if (typeof v !== 'boolean') {
        errors.push(
          new Error(
            `cel evaluation error: expression '${c.expression}' eval result type should be bool but got ${typeof v}`,
          ),
        );
        continue;
      }
      if (!v)
        return errors.length
          ? { matches: false, excluded: true, error: aggregate(errors) }
          : { matches: false, excluded: true };
    }
    return errors.length
      ? { matches: false, excluded: false, error: aggregate(errors) }
      : { matches: true, excluded: false };
  }
}

const aggregate = (errors: Error[]): AuthorizationError =>
  new AuthorizationError('MatchConditionError', aggregateMessage(errors));

/**
 * The `request` variable: the v1 spec with `user`, `groups`, `uid` and `extra` always present,
 * every string of `resourceAttributes` present, and the selectors only when an expression names
 * them (Kubernetes' `convertObjectToUnstructured`).
 */
function celRequest(spec: SubjectAccessReviewSpec, selectors: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    user: spec.user ?? '',
    groups: spec.groups ?? [],
    uid: spec.uid ?? '',
    extra: spec.extra ?? {},
  };
  const r = spec.resourceAttributes;
  if (r) {
    const ra: Record<string, unknown> = {
      namespace: r.namespace ?? '',
      verb: r.verb ?? '',
      group: r.group ?? '',
      version: r.version ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      name: r.name ?? '',
    };
    if (selectors) {
      if (r.fieldSelector) ra['fieldSelector'] = r.fieldSelector;
      if (r.labelSelector) ra['labelSelector'] = r.labelSelector;
    }
    out['resourceAttributes'] = ra;
  }
  if (spec.nonResourceAttributes)
    out['nonResourceAttributes'] = {
      path: spec.nonResourceAttributes.path ?? '',
      verb: spec.nonResourceAttributes.verb ?? '',
    };
  return out;
}
