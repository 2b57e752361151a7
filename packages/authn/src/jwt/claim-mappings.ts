import type { JWTAuthenticator, UserInfo } from '@kevents/api';
import { compile, fromCelValue } from '@kevents/cel';
import type { CompiledExpression } from '@kevents/cel';
import { invalidCredentials, messageOf } from '../errors.js';
import { jsonTypeName, unmarshalError } from '../go-format.js';

/** The extra key kube-apiserver sets from a token's `jti` (`user.CredentialIDKey`). */
export const credentialIdKey = 'authentication.kubernetes.io/credential-id';

type Source = { readonly claim: string; readonly prefix: string } | { readonly expression: CompiledExpression };

interface ClaimRule {
  readonly claim?: string;
  readonly requiredValue?: string;
  readonly expression?: CompiledExpression;
  readonly message: string;
}

interface ExpressionRule {
  readonly expression: CompiledExpression;
  readonly message: string;
}

/** The claim names a mapping reads directly (for distributed claims). */
export interface MappingClaims {
  readonly groupsClaim?: string;
}

/**
 * One `jwt[]` entry's `claimMappings`, `claimValidationRules` and `userValidationRules`, compiled
 * once (CEL through `@kevents/cel`) and applied to verified claims as kube-apiserver does: username,
 * groups, uid, extra, then the claim/requiredValue rules, the claim expressions, the user rules.
 * Every failure is an `InvalidCredentials` error with Kubernetes' text.
 */
export class ClaimMapper implements MappingClaims {
  readonly #username: Source;
  readonly #groups: Source | undefined;
  readonly #uid: { claim: string } | { expression: CompiledExpression } | undefined;
  readonly #extra: readonly { key: string; expression: CompiledExpression }[];
  readonly #claimRules: readonly ClaimRule[];
  readonly #userRules: readonly ExpressionRule[];
  readonly groupsClaim: string | undefined;

  /** @throws CelError when an expression does not compile (the config was not validated). */
  constructor(a: JWTAuthenticator) {
    const m = a.claimMappings;
    this.#username = source(m.username);
    this.#groups = m.groups && (m.groups.claim || m.groups.expression) ? source(m.groups) : undefined;
    this.groupsClaim = m.groups?.claim || undefined;
    this.#uid = m.uid?.claim
      ? { claim: m.uid.claim }
      : m.uid?.expression
        ? { expression: compile('claims', m.uid.expression) }
        : undefined;
    this.#extra = (m.extra ?? []).map((e) => ({
      key: e.key ?? '',
      expression: compile('claims', e.valueExpression ?? ''),
    }));
    this.#claimRules = (a.claimValidationRules ?? []).map((r) =>
      r.expression
        ? { expression: compile('claims', r.expression, { resultType: 'bool' }), message: r.message ?? '' }
        : { claim: r.claim ?? '', requiredValue: r.requiredValue ?? '', message: '' },
    );
    this.#userRules = (a.userValidationRules ?? []).map((r) => ({
      expression: compile('user', r.expression ?? '', { resultType: 'bool' }),
      message: r.message ?? '',
    }));
  }

  /** Maps verified (and expanded) claims to the user, then runs every rule. */
  map(claims: Record<string, unknown>): UserInfo {
    const activation = { claims };
    const username = this.#mapUsername(claims, activation);
    const groups = this.#mapGroups(claims, activation);
    const uid = this.#mapUid(claims, activation);
    const extra = this.#mapExtra(claims, activation);

    for (const r of this.#claimRules) {
      if (r.claim === undefined) continue;
      if (!Object.hasOwn(claims, r.claim))
        throw invalidCredentials(`oidc: required claim ${r.claim} not present in ID token`);
      const v = claims[r.claim];
      if (typeof v !== 'string')
        throw invalidCredentials(`oidc: parse claim ${r.claim}: ${unmarshalError(v, 'string')}`);
      if (v !== r.requiredValue)
        throw invalidCredentials(
          `oidc: required claim ${r.claim} value does not match. Got = ${v}, want = ${r.requiredValue}`,
        );
    }
    const claimExprs = this.#claimRules.filter((r): r is ExpressionRule & ClaimRule => r.expression !== undefined);
    checkRules(claimExprs, activation, 'oidc: error evaluating claim validation expression: ');

    const user: UserInfo = {
      username,
      ...(uid ? { uid } : {}),
      groups,
      ...(Object.keys(extra).length ? { extra } : {}),
    };
    if (this.#userRules.length) {
      checkRules(
        this.#userRules,
        { user: { username, uid: uid ?? '', groups: [...groups], extra: { ...extra } } },
        'oidc: error evaluating user info validation rule: ',
      );
    }
    return user;
  }

  #mapUsername(claims: Record<string, unknown>, activation: Record<string, unknown>): string {
    const s = this.#username;
    if ('claim' in s) {
      const v = stringClaim(claims, s.claim, (why) => `oidc: parse username claims ${JSON.stringify(s.claim)}: ${why}`);
      if (s.claim === 'email' && Object.hasOwn(claims, 'email_verified')) {
        const ev = claims['email_verified'];
        if (ev !== null && typeof ev !== 'boolean')
          throw invalidCredentials(`oidc: parse 'email_verified' claim: ${unmarshalError(ev, 'bool')}`);
        if (ev === false) throw invalidCredentials('oidc: email not verified');
      }
      return s.prefix ? `${s.prefix}${v}` : v;
    }
    const prefix = 'oidc: error evaluating username claim expression: ';
    const v = evaluate(s.expression, activation, prefix);
    if (typeof v !== 'string') throw invalidCredentials(`${prefix}username claim expression must return a string`);
    if (v === '') throw invalidCredentials('oidc: empty username via CEL expression is not allowed');
    return v;
  }

  #mapGroups(claims: Record<string, unknown>, activation: Record<string, unknown>): string[] {
    const s = this.#groups;
    if (!s) return [];
    if ('claim' in s) {
      if (!Object.hasOwn(claims, s.claim)) return [];
      const v = claims[s.claim];
      let groups: string[];
      if (v === null) groups = [];
      else if (typeof v === 'string') groups = [v];
      else if (Array.isArray(v) && v.every((g) => typeof g === 'string')) groups = v as string[];
      else
        throw invalidCredentials(
          `oidc: parse groups claim ${JSON.stringify(s.claim)}: json: cannot unmarshal ${jsonTypeName(v)} into Go value of type string`,
        );
      return s.prefix ? groups.map((g) => `${s.prefix}${g}`) : [...groups];
    }
    const prefix = 'oidc: error evaluating group claim expression: ';
    const v = stringOrList(evaluate(s.expression, activation, prefix));
    if (v === undefined) throw invalidCredentials(`${prefix}expression must return a string or a list of strings`);
    return v;
  }

  #mapUid(claims: Record<string, unknown>, activation: Record<string, unknown>): string | undefined {
    const s = this.#uid;
    if (!s) return undefined;
    if ('claim' in s)
      return stringClaim(claims, s.claim, (why) => `oidc: parse uid claim ${JSON.stringify(s.claim)}: ${why}`);
    const prefix = 'oidc: error evaluating uid claim expression: ';
    const v = evaluate(s.expression, activation, prefix);
    if (typeof v !== 'string') throw invalidCredentials(`${prefix}uid claim expression must return a string`);
    return v;
  }

  #mapExtra(claims: Record<string, unknown>, activation: Record<string, unknown>): Record<string, string[]> {
    const extra: Record<string, string[]> = {};
    const jti = claims['jti'];
    if (typeof jti === 'string' && jti !== '') extra[credentialIdKey] = [`JTI=${jti}`];
    for (const e of this.#extra) {
      const v = stringOrList(evaluate(e.expression, activation, ''));
      if (v === undefined)
        throw invalidCredentials(
          `oidc: error evaluating extra claim expression: ${e.expression.expression}: expression must return a string or a list of strings`,
        );
      if (v.length) extra[e.key] = v;
    }
    return extra;
  }
}

function source(s: { claim?: string; prefix?: string; expression?: string }): Source {
  if (s.expression) return { expression: compile('claims', s.expression) };
  return { claim: s.claim ?? '', prefix: s.prefix ?? '' };
}

/** A claim that must be present and a JSON string (null reads as the empty string, as Go's json does). */
function stringClaim(claims: Record<string, unknown>, name: string, wrap: (why: string) => string): string {
  if (!Object.hasOwn(claims, name)) throw invalidCredentials(wrap('claim not present'));
  const v = claims[name];
  if (v === null) return '';
  if (typeof v !== 'string') throw invalidCredentials(wrap(unmarshalError(v, 'string')));
  return v;
}

/** Evaluates an expression; an evaluation error reads `<prefix>expression '<expr>' resulted in error: <err>`. */
function evaluate(c: CompiledExpression, activation: Record<string, unknown>, prefix: string): unknown {
  try {
    return fromCelValue(c.evaluate(activation));
  } catch (e) {
    throw invalidCredentials(`${prefix}expression '${c.expression}' resulted in error: ${messageOf(e)}`, e);
  }
}

/** A string (one value, none when empty), a list of strings (empties dropped) or null (none); else undefined. */
function stringOrList(v: unknown): string[] | undefined {
  if (v === null || v === undefined) return [];
  if (typeof v === 'string') return v === '' ? [] : [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.filter((x) => x !== '');
  return undefined;
}

/** All expressions first (the first evaluation error aborts), then the results in order. */
function checkRules(rules: readonly ExpressionRule[], activation: Record<string, unknown>, prefix: string): void {
  const results = rules.map((r) => evaluate(r.expression, activation, prefix));
  rules.forEach((r, i) => {
    const v = results[i];
    if (typeof v !== 'boolean') throw invalidCredentials(`${prefix}validation expression must return a boolean`);
    if (!v)
      throw invalidCredentials(`${prefix}validation expression '${r.expression.expression}' failed: ${r.message}`);
  });
}
