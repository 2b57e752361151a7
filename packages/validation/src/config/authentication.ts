import type {
  AuthenticationConfiguration,
  ClaimMappings,
  Issuer,
  JWTAuthenticator,
  PrefixedClaimOrExpression,
} from '@kevents/api';
import { selectsField, type CompiledExpression } from '@kevents/cel';
import { FieldPath } from '../field/path.js';
import { duplicate, invalid, required, tooMany, type FieldError } from '../field/error.js';
import { compileAt } from './cel.js';
import { certificatePoolError } from './certificates.js';
import { isDomainPrefixedPath } from './names.js';
import { parseGoURL, URLParseError } from './url.js';

/** Inputs that come from flags rather than the document. */
export interface AuthenticationValidationOptions {
  /** `--service-account-issuer` values: no JWT issuer may equal one of them. */
  disallowedIssuers?: readonly string[];
  /** The StructuredAuthenticationConfigurationEgressSelector gate (Beta, on by default). */
  egressSelectorFeatureEnabled?: boolean;
}

/** The most JWT authenticators one configuration may hold. */
export const maxJWTAuthenticators = 64;

/**
 * `ValidateAuthenticationConfiguration`: every rule, in Kubernetes' order, with structural paths
 * (`jwt[0].issuer.url`, `anonymous.conditions`).
 */
export function validateAuthenticationConfiguration(
  c: AuthenticationConfiguration,
  options: AuthenticationValidationOptions = {},
): FieldError[] {
  const errs: FieldError[] = [];
  const jwt = c.jwt ?? [];
  const root = FieldPath.root('jwt');
  if (jwt.length > maxJWTAuthenticators) return [tooMany(root, jwt.length, maxJWTAuthenticators)];

  const disallowed = new Set(options.disallowedIssuers ?? []);
  const seenIssuers = new Set<string>();
  const seenDiscovery = new Set<string>();
  jwt.forEach((a, i) => {
    const p = root.index(i);
    errs.push(...validateJWTAuthenticator(a, p, disallowed, options.egressSelectorFeatureEnabled ?? true));
    const url = a.issuer?.url ?? '';
    if (seenIssuers.has(url)) errs.push(duplicate(p.child('issuer', 'url'), url));
    seenIssuers.add(url);
    const discovery = a.issuer?.discoveryURL ?? '';
    if (discovery !== '') {
      if (seenDiscovery.has(discovery)) errs.push(duplicate(p.child('issuer', 'discoveryURL'), discovery));
      seenDiscovery.add(discovery);
    }
  });

  const anon = c.anonymous;
  if (anon && !anon.enabled && (anon.conditions?.length ?? 0) > 0) {
    errs.push(
      invalid(
        FieldPath.root('anonymous', 'conditions'),
        anon.conditions,
        'enabled should be set to true when conditions are defined',
      ),
    );
  }
  return errs;
}

interface State {
  usesEmail: boolean;
  usesEmailVerified: boolean;
}

const usesEmailVerified = (c: CompiledExpression): boolean => selectsField(c.ast, 'claims', 'email_verified');

/** `validateJWTAuthenticator`: issuer, claim validation rules, claim mappings, user validation rules. */
export function validateJWTAuthenticator(
  a: JWTAuthenticator,
  p: FieldPath,
  disallowedIssuers: ReadonlySet<string> = new Set(),
  egressSelectorFeatureEnabled = true,
): FieldError[] {
  const state: State = { usesEmail: false, usesEmailVerified: false };
  return [
    ...validateIssuer(a.issuer ?? {}, p.child('issuer'), disallowedIssuers, egressSelectorFeatureEnabled),
    ...validateClaimValidationRules(a, p.child('claimValidationRules'), state),
    ...validateClaimMappings(a.claimMappings ?? { username: {} }, p.child('claimMappings'), state),
    ...validateUserValidationRules(a, p.child('userValidationRules')),
  ];
}

function validateIssuer(
  issuer: Issuer,
  p: FieldPath,
  disallowed: ReadonlySet<string>,
  egressGate: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const url = issuer.url ?? '';
  const urlPath = p.child('url');
  if (url === '') errs.push(required(urlPath));
  else errs.push(...validateURL(url, urlPath, disallowed));

  const discovery = issuer.discoveryURL ?? '';
  const discoveryPath = p.child('discoveryURL');
  if (discovery !== '') {
    if (url !== '' && url.replace(/\/+$/, '') === discovery.replace(/\/+$/, '')) {
      errs.push(invalid(discoveryPath, discovery, 'discoveryURL must be different from URL'));
    }
    errs.push(...validateURL(discovery, discoveryPath, new Set()));
  }

  errs.push(...validateAudiences(issuer, p.child('audiences'), p.child('audienceMatchPolicy')));

  const ca = issuer.certificateAuthority ?? '';
  if (ca !== '') {
    const err = certificatePoolError(ca);
    if (err) errs.push(invalid(p.child('certificateAuthority'), '<omitted>', err));
  }

  const egress = issuer.egressSelectorType ?? '';
  if (egress !== '') {
    const ep = p.child('egressSelectorType');
    if (!egressGate) {
      errs.push(
        invalid(
          ep,
          egress,
          'egress selector is not supported when StructuredAuthenticationConfigurationEgressSelector feature gate is disabled',
        ),
      );
    }
    if (egress !== 'controlplane' && egress !== 'cluster')
      errs.push(invalid(ep, egress, 'egress selector must be either controlplane or cluster'));
  }
  return errs;
}

function validateURL(url: string, p: FieldPath, disallowed: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  if (disallowed.has(url)) {
    errs.push(invalid(p, url, `URL must not overlap with disallowed issuers: [${[...disallowed].sort().join(' ')}]`));
  }
  let u;
  try {
    u = parseGoURL(url);
  } catch (e) {
    if (e instanceof URLParseError) return [...errs, invalid(p, url, e.message)];
    throw e;
  }
  if (u.scheme !== 'https') errs.push(invalid(p, url, 'URL scheme must be https'));
  if (u.hasUser) errs.push(invalid(p, url, 'URL must not contain a username or password'));
  if (u.rawQuery.length > 0) errs.push(invalid(p, url, 'URL must not contain a query'));
  if (u.fragment.length > 0) errs.push(invalid(p, url, 'URL must not contain a fragment'));
  return errs;
}

function validateAudiences(issuer: Issuer, p: FieldPath, policyPath: FieldPath): FieldError[] {
  const audiences = issuer.audiences ?? [];
  const policy = issuer.audienceMatchPolicy ?? '';
  if (audiences.length === 0) return [required(p, `at least one ${p.toString()} is required`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  audiences.forEach((a, i) => {
    if (a.length === 0) errs.push(required(p.index(i)));
    if (seen.has(a)) errs.push(duplicate(p.index(i), a));
    seen.add(a);
  });
  if (audiences.length > 1 && policy !== 'MatchAny') {
    errs.push(invalid(policyPath, policy, 'audienceMatchPolicy must be MatchAny for multiple audiences'));
  }
  if (audiences.length === 1 && policy !== '' && policy !== 'MatchAny') {
    errs.push(invalid(policyPath, policy, 'audienceMatchPolicy must be empty or MatchAny for single audience'));
  }
  return errs;
}

function validateClaimValidationRules(a: JWTAuthenticator, p: FieldPath, state: State): FieldError[] {
  const errs: FieldError[] = [];
  const seenClaims = new Set<string>();
  const seenExpressions = new Set<string>();
  (a.claimValidationRules ?? []).forEach((rule, i) => {
    const rp = p.index(i);
    const claim = rule.claim ?? '';
    const expression = rule.expression ?? '';
    if (claim !== '' && expression !== '') {
      errs.push(invalid(rp, claim, "claim and expression can't both be set"));
    } else if (claim === '' && expression === '') {
      errs.push(required(rp, 'claim or expression is required'));
    } else if (claim !== '') {
      if (rule.message) errs.push(invalid(rp.child('message'), rule.message, 'may not be specified when claim is set'));
      if (seenClaims.has(claim)) errs.push(duplicate(rp.child('claim'), claim));
      seenClaims.add(claim);
    } else {
      if (rule.requiredValue)
        errs.push(
          invalid(rp.child('requiredValue'), rule.requiredValue, 'may not be specified when expression is set'),
        );
      if (seenExpressions.has(expression)) {
        errs.push(duplicate(rp.child('expression'), expression));
        return;
      }
      seenExpressions.add(expression);
      const { compiled, error } = compileAt(rp.child('expression'), 'claims', expression, { resultType: 'bool' });
      if (error) errs.push(error);
      if (compiled && usesEmailVerified(compiled)) state.usesEmailVerified = true;
    }
  });
  return errs;
}

function validatePrefixed(
  m: PrefixedClaimOrExpression | undefined,
  p: FieldPath,
  requiredMapping: boolean,
): { errs: FieldError[]; compiled?: CompiledExpression } {
  const errs: FieldError[] = [];
  const claim = m?.claim ?? '';
  const expression = m?.expression ?? '';
  let compiled: CompiledExpression | undefined;
  if (claim !== '' && expression !== '') {
    errs.push(invalid(p, '', "claim and expression can't both be set"));
  } else if (claim === '' && expression === '') {
    if (requiredMapping) errs.push(required(p, 'claim or expression is required'));
  } else if (expression !== '') {
    if (m?.prefix !== undefined && m.prefix !== null)
      errs.push(invalid(p.child('prefix'), m.prefix, 'may not be specified when expression is set'));
    const r = compileAt(p.child('expression'), 'claims', expression);
    if (r.error) errs.push(r.error);
    compiled = r.compiled;
  } else if (m?.prefix === undefined || m.prefix === null) {
    errs.push(
      required(
        p.child('prefix'),
        'prefix is required when claim is set. It can be set to an empty string to disable prefixing',
      ),
    );
  }
  return { errs, compiled };
}

function validateClaimMappings(m: ClaimMappings, p: FieldPath, state: State): FieldError[] {
  const errs: FieldError[] = [];
  const username = validatePrefixed(m.username, p.child('username'), true);
  errs.push(...username.errs);
  if (username.compiled) {
    if (selectsField(username.compiled.ast, 'claims', 'email')) state.usesEmail = true;
    if (usesEmailVerified(username.compiled)) state.usesEmailVerified = true;
  }
  errs.push(...validatePrefixed(m.groups, p.child('groups'), false).errs);

  const uidClaim = m.uid?.claim ?? '';
  const uidExpression = m.uid?.expression ?? '';
  if (uidClaim !== '' && uidExpression !== '')
    errs.push(invalid(p.child('uid'), '', "claim and expression can't both be set"));
  else if (uidExpression !== '') {
    const r = compileAt(p.child('uid', 'expression'), 'claims', uidExpression);
    if (r.error) errs.push(r.error);
  }

  const seenKeys = new Set<string>();
  (m.extra ?? []).forEach((e, i) => {
    const ep = p.child('extra').index(i);
    const key = e.key ?? '';
    const kp = ep.child('key');
    errs.push(...isDomainPrefixedPath(kp, key));
    if (key !== key.toLowerCase()) errs.push(invalid(kp, key, 'must be lowercase'));
    if (isKubernetesDomainPrefix(key))
      errs.push(invalid(kp, key, 'k8s.io, kubernetes.io and their subdomains are reserved for Kubernetes use'));
    if (seenKeys.has(key)) {
      errs.push(duplicate(kp, key));
      return;
    }
    seenKeys.add(key);
    const valueExpression = e.valueExpression ?? '';
    if (valueExpression === '') {
      errs.push(required(ep.child('valueExpression')));
      return;
    }
    const r = compileAt(ep.child('valueExpression'), 'claims', valueExpression);
    if (r.error) errs.push(r.error);
    if (r.compiled && usesEmailVerified(r.compiled)) state.usesEmailVerified = true;
  });

  if (state.usesEmail && !state.usesEmailVerified) {
    errs.push(
      invalid(
        p.child('username', 'expression'),
        m.username?.expression ?? '',
        'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression',
      ),
    );
  }
  return errs;
}

function isKubernetesDomainPrefix(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return false;
  const domain = key.slice(0, slash);
  return (
    domain === 'kubernetes.io' || domain.endsWith('.kubernetes.io') || domain === 'k8s.io' || domain.endsWith('.k8s.io')
  );
}

function validateUserValidationRules(a: JWTAuthenticator, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (a.userValidationRules ?? []).forEach((rule, i) => {
    const ep = p.index(i).child('expression');
    const expression = rule.expression ?? '';
    if (expression === '') {
      errs.push(required(ep));
      return;
    }
    if (seen.has(expression)) {
      errs.push(duplicate(ep, expression));
      return;
    }
    seen.add(expression);
    const r = compileAt(ep, 'user', expression, { resultType: 'bool' });
    if (r.error) errs.push(r.error);
  });
  return errs;
}
