import { parseJson } from '@kevents/api';
import { foldName, jsonTime, members } from './json-time.js';
import type { GoSeconds, IdTokenTimes } from './json-time.js';

/** A `_claim_sources` entry as go-oidc decodes it (`claimSource`). */
export interface ClaimSource {
  readonly endpoint: string;
  readonly accessToken: string;
}

/**
 * What go-oidc v2.3.0 (vendored by kube-apiserver) reads from an ID token's payload into its
 * `idToken` struct: the registered claims it checks, typed as Go typed them.
 */
export interface IdTokenClaims {
  /** `iss` (`""` when absent). */
  readonly iss: string;
  readonly sub: string;
  /** `aud`: one string, or an array of strings (`null` reads as `[""]`, as go-oidc's `audience` does). */
  readonly aud: readonly string[];
  readonly times: IdTokenTimes;
  readonly nonce: string;
  readonly atHash: string;
  /** `_claim_names`; undefined when absent or `null`. */
  readonly claimNames: ReadonlyMap<string, string> | undefined;
  /** `_claim_sources`; undefined when absent or `null`. */
  readonly claimSources: ReadonlyMap<string, ClaimSource> | undefined;
}

type StringField = 'iss' | 'sub' | 'nonce' | 'at_hash';

/** The folded member names of go-oidc's `idToken` fields (Go matches names case-insensitively). */
const fields: ReadonlyMap<string, string> = new Map(
  ['iss', 'sub', 'aud', 'exp', 'iat', 'nbf', 'nonce', 'at_hash', '_claim_names', '_claim_sources'].map((f) => [
    foldName(f),
    f,
  ]),
);

/** The JSON kind of a value's text, as Go's `UnmarshalTypeError.Value` names it. */
function kindOf(raw: string): string {
  const c = raw[0];
  if (c === '"') return 'string';
  if (c === '{') return 'object';
  if (c === '[') return 'array';
  if (c === 't' || c === 'f') return 'bool';
  return 'number';
}

const typeError = (raw: string, struct: string, field: string, goType: string): Error =>
  new Error(`json: cannot unmarshal ${kindOf(raw)} into Go struct field ${struct}.${field} of type ${goType}`);

/**
 * Decodes a token payload's registered claims exactly as go-oidc v2.3.0's `json.Unmarshal(payload,
 * &idToken)` does (oidc.go: `iss`, `sub`, `nonce`, `at_hash` strings; `aud` an `audience`; `exp`,
 * `iat`, `nbf` `jsonTime`s; `_claim_names` a `map[string]string`; `_claim_sources` a
 * `map[string]claimSource`):
 * - member names match the fields case-insensitively (Go's folding): `"AUD"` is the audience too,
 *   and the last matching member wins;
 * - a value of the wrong JSON type fails the whole token (`null` leaves a string as it was);
 *   an `aud` array with any element that is not a string or `null` fails it;
 * - a failing `aud` or time member ends decoding at once with its error; other type errors are
 *   remembered and the first is reported after the whole payload was read (Go's `saveError`).
 *
 * `payload` must be a JSON object text already accepted by `JSON.parse`.
 * @throws Error with Go's text (the caller prefixes `oidc: failed to unmarshal claims: `).
 */
export function decodeIdToken(payload: string): IdTokenClaims {
  const strings: Record<StringField, string> = { iss: '', sub: '', nonce: '', at_hash: '' };
  let aud: string[] = [];
  let exp: GoSeconds = 0n;
  let iat: GoSeconds = 0n;
  let nbf: GoSeconds | undefined;
  let expPresent = false;
  let claimNames: Map<string, string> | undefined;
  let claimSources: Map<string, ClaimSource> | undefined;
  let saved: Error | undefined;
  const save = (e: Error): void => {
    saved ??= e;
  };
  for (const m of members(payload)) {
    const field = fields.get(foldName(m.key));
    const raw = m.raw;
    switch (field) {
      case undefined:
        break;
      case 'iss':
      case 'sub':
      case 'nonce':
      case 'at_hash':
        if (raw[0] === '"') strings[field] = parseJson(raw) as string;
        else if (raw !== 'null') save(typeError(raw, 'idToken', field, 'string'));
        break;
      case 'aud':
        aud = audience(raw);
        break;
      case 'exp':
        exp = jsonTime(raw, 'exp');
        expPresent = true;
        break;
      case 'iat':
        iat = jsonTime(raw, 'iat');
        break;
      case 'nbf':
        nbf = raw === 'null' ? undefined : jsonTime(raw, 'nbf');
        break;
      case '_claim_names':
        if (raw === 'null') claimNames = undefined;
        else if (raw[0] !== '{') save(typeError(raw, 'idToken', field, 'map[string]string'));
        else {
          claimNames ??= new Map();
          for (const e of members(raw)) {
            if (e.raw[0] === '"') claimNames.set(e.key, parseJson(e.raw) as string);
            else {
              claimNames.set(e.key, '');
              if (e.raw !== 'null') save(typeError(e.raw, 'idToken', field, 'string'));
            }
          }
        }
        break;
      case '_claim_sources':
        if (raw === 'null') claimSources = undefined;
        else if (raw[0] !== '{') save(typeError(raw, 'idToken', field, 'map[string]oidc.claimSource'));
        else {
          claimSources ??= new Map();
          for (const e of members(raw)) claimSources.set(e.key, claimSource(e.raw, save));
        }
        break;
    }
  }
  if (saved) throw saved;
  return {
    iss: strings.iss,
    sub: strings.sub,
    aud,
    times: { exp, iat, nbf, expPresent },
    nonce: strings.nonce,
    atHash: strings.at_hash,
    claimNames,
    claimSources,
  };
}

/** go-oidc's `audience.UnmarshalJSON`: a string (or `null`, read as `""`), else a `[]string`. */
function audience(raw: string): string[] {
  if (raw[0] === '"') return [parseJson(raw) as string];
  if (raw === 'null') return [''];
  if (raw[0] !== '[') throw typeError(raw, 'idToken', 'aud', '[]string');
  const values = parseJson(raw) as unknown[];
  const out: string[] = [];
  let bad: unknown;
  for (const v of values) {
    if (typeof v === 'string') out.push(v);
    else {
      out.push('');
      if (v !== null && bad === undefined) bad = v;
    }
  }
  if (bad !== undefined) throw typeError(JSON.stringify(bad), 'idToken', 'aud', 'string');
  return out;
}

/** One `claimSource` value: an object whose `endpoint` and `access_token` (any case) are strings. */
function claimSource(raw: string, save: (e: Error) => void): ClaimSource {
  const s = { endpoint: '', accessToken: '' };
  if (raw === 'null') return s;
  if (raw[0] !== '{') {
    save(typeError(raw, 'idToken', '_claim_sources', 'oidc.claimSource'));
    return s;
  }
  for (const m of members(raw)) {
    const f = foldName(m.key);
    const name = f === 'ENDPOINT' ? 'endpoint' : f === 'ACCESS_TOKEN' ? 'access_token' : undefined;
    if (name === undefined) continue;
    if (m.raw[0] === '"') s[name === 'endpoint' ? 'endpoint' : 'accessToken'] = parseJson(m.raw) as string;
    else if (m.raw !== 'null') save(typeError(m.raw, 'claimSource', `_claim_sources.${name}`, 'string'));
  }
  return s;
}

/**
 * The unverified issuer of a payload as kube-apiserver peeks at it (`untrustedIssuer`: a struct
 * with only `Issuer string \`json:"iss"\``): the last string member whose name folds to `iss`;
 * undefined when there is none or any such member is neither a string nor `null` (Go's decode
 * fails). `payload` must be a JSON object text already accepted by `JSON.parse`.
 */
export function peekIssuerClaim(payload: string): string | undefined {
  let iss: string | undefined;
  for (const m of members(payload)) {
    if (foldName(m.key) !== 'ISS') continue;
    if (m.raw[0] === '"') iss = parseJson(m.raw) as string;
    else if (m.raw !== 'null') return undefined;
  }
  return iss;
}
