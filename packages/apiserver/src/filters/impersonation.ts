import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, forbidden } from '../errors/api-error.js';
import type { ApiError } from '../errors/api-error.js';
import { forbiddenMessage } from './authorization.js';
import { whileClientWaits } from './authentication.js';
import { headerLines } from './header-lines.js';
import type { HeaderLines } from './header-lines.js';
import { unescapeExtraKey } from '@kevents/api';
import type { Authorizer, Decision, RequestAttributes, UserInfo } from '@kevents/api';
import { isDNS1123Label, isDNS1123Subdomain } from '@kevents/validation';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who sent the request when it impersonates another user (then `user` is the impersonated one). */
    impersonator?: UserInfo;
  }
}

/** `authentication.k8s.io/v1` header names (`ImpersonateUserHeader` and friends), lower-cased as Node gives them. */
export const impersonateUserHeader = 'impersonate-user';
export const impersonateUidHeader = 'impersonate-uid';
export const impersonateGroupHeader = 'impersonate-group';
export const impersonateUserExtraHeaderPrefix = 'impersonate-extra-';

const serviceAccountUsernamePrefix = 'system:serviceaccount:';
const allServiceAccountsGroup = 'system:serviceaccounts';
const serviceAccountGroupPrefix = 'system:serviceaccounts:';
const anonymousName = 'system:anonymous';
const allAuthenticated = 'system:authenticated';
const allUnauthenticated = 'system:unauthenticated';
const authenticationV1 = 'authentication.k8s.io/v1';

/**
 * One thing a request asks to impersonate, as kube's `buildImpersonationRequests` lists them
 * (a `v1.ObjectReference`: the extra key travels as `fieldPath`).
 */
export interface ImpersonationRequest {
  readonly kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  readonly namespace: string;
  readonly name: string;
  /** `authentication.k8s.io/v1` for `UserExtra` and `UID`, else `""` (the core group). */
  readonly apiVersion: string;
  /** The extra key of a `UserExtra`. */
  readonly fieldPath: string;
}

/** serviceaccount.SplitUsername: `system:serviceaccount:<ns>:<name>` with a valid namespace and name, else undefined. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(serviceAccountUsernamePrefix)) return undefined;
  const parts = username.slice(serviceAccountUsernamePrefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  return isDNS1123Label(namespace).length === 0 && isDNS1123Subdomain(name).length === 0
    ? { namespace, name }
    : undefined;
}

/** Go's `%v` of an ObjectReference: `{Kind Namespace Name UID APIVersion ResourceVersion FieldPath}`. */
const goObjectReference = (r: ImpersonationRequest): string =>
  `{${[r.kind, r.namespace, r.name, '', r.apiVersion, '', r.fieldPath].join(' ')}}`;

/**
 * kube's `buildImpersonationRequests`: the user (or service account) of the first
 * `Impersonate-User` line, every `Impersonate-Group` line, every `Impersonate-Extra-<key>` line
 * (the key lower-cased, then percent-decoded) and the first `Impersonate-Uid`, in that order.
 * Groups, extras or a uid without a user are a 400 (kube ≥ 1.35; 1.34 answered 500).
 */
export function impersonationRequests(lines: HeaderLines): ImpersonationRequest[] {
  let user: string | undefined;
  let uid: string | undefined;
  const groups: ImpersonationRequest[] = [];
  const extras = new Map<string, string[]>();
  for (const [name, value] of lines) {
    if (!name.startsWith('impersonate-')) continue;
    if (name === impersonateUserHeader) user ??= value;
    else if (name === impersonateUidHeader) uid ??= value;
    else if (name === impersonateGroupHeader)
      groups.push({ kind: 'Group', namespace: '', name: value, apiVersion: '', fieldPath: '' });
    else if (name.startsWith(impersonateUserExtraHeaderPrefix)) {
      const key = unescapeExtraKey(name.slice(impersonateUserExtraHeaderPrefix.length));
      const values = extras.get(key);
      if (values) values.push(value);
      else extras.set(key, [value]);
    }
  }
  const out: ImpersonationRequest[] = [];
  const hasUser = !!user;
  if (user) {
    const sa = splitServiceAccountUsername(user);
    out.push(
      sa
        ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name, apiVersion: '', fieldPath: '' }
        : { kind: 'User', namespace: '', name: user, apiVersion: '', fieldPath: '' },
    );
  }
  out.push(...groups);
  for (const [key, values] of extras)
    for (const v of values)
      out.push({ kind: 'UserExtra', namespace: '', name: v, apiVersion: authenticationV1, fieldPath: key });
  if (uid) out.push({ kind: 'UID', namespace: '', name: uid, apiVersion: authenticationV1, fieldPath: '' });
  if ((groups.length || extras.size || uid) && !hasUser) {
    throw badRequest(`requested [${out.map(goObjectReference).join(' ')}] without impersonating a user`);
  }
  return out;
}

const resources: Readonly<Record<ImpersonationRequest['kind'], string>> = {
  ServiceAccount: 'serviceaccounts',
  User: 'users',
  Group: 'groups',
  UserExtra: 'userextras',
  UID: 'uids',
};

/** The review of one impersonation: verb `impersonate` on users, serviceaccounts, groups, userextras/<key> or uids. */
export function impersonationAttributes(requestor: UserInfo, r: ImpersonationRequest): RequestAttributes {
  const slash = r.apiVersion.indexOf('/');
  return {
    user: requestor,
    verb: 'impersonate',
    isResourceRequest: true,
    path: '',
    apiGroup: slash < 0 ? '' : r.apiVersion.slice(0, slash),
    apiVersion: slash < 0 ? r.apiVersion : r.apiVersion.slice(slash + 1),
    resource: resources[r.kind],
    subresource: r.kind === 'UserExtra' ? r.fieldPath : '',
    namespace: r.namespace,
    name: r.name,
  };
}

/**
 * The user a request becomes once every impersonation is allowed: a service account's groups
 * are `system:serviceaccounts` and `system:serviceaccounts:<ns>` unless groups were given;
 * `system:authenticated` is added unless a group already says authenticated or unauthenticated,
 * or, for `system:anonymous`, `system:unauthenticated` is.
 */
export function impersonatedUser(requests: readonly ImpersonationRequest[]): UserInfo {
  const groupsSpecified = requests.some((r) => r.kind === 'Group');
  let username = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    switch (r.kind) {
      case 'ServiceAccount':
        username = `${serviceAccountUsernamePrefix}${r.namespace}:${r.name}`;
        if (!groupsSpecified) groups = [allServiceAccountsGroup, `${serviceAccountGroupPrefix}${r.namespace}`];
        break;
      case 'User':
        username = r.name;
        break;
      case 'Group':
        groups.push(r.name);
        break;
      case 'UserExtra':
        (extra[r.fieldPath] ??= []).push(r.name);
        break;
      case 'UID':
        uid = r.name;
        break;
    }
  }
  if (username !== anonymousName) {
    if (!groups.includes(allAuthenticated) && !groups.includes(allUnauthenticated)) groups.push(allAuthenticated);
  } else if (!groups.includes(allUnauthenticated)) groups.push(allUnauthenticated);
  return {
    username,
    ...(uid ? { uid } : {}),
    groups,
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}

/** responsewriters' sanitizer: `&`, `<` and `>` HTML-escaped. */
const sanitize = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** responsewriters.ForbiddenStatusError of a refused impersonation: `users "admin" is forbidden: User "alice" cannot impersonate ...`. */
export function impersonationForbidden(attrs: RequestAttributes, reason: string): ApiError {
  const msg = sanitize(forbiddenMessage(attrs));
  return forbidden(reason ? `${msg}: ${reason}` : msg, { group: attrs.apiGroup, resource: attrs.resource }, attrs.name);
}

/** True when a request carries any header the filter reads (a cheap scan of the parsed header names). */
function asksToImpersonate(headers: IncomingHttpHeaders): boolean {
  for (const k in headers) {
    if (
      k.length >= 15 &&
      k.startsWith('impersonate-') &&
      (k === impersonateUserHeader ||
        k === impersonateGroupHeader ||
        k === impersonateUidHeader ||
        k.startsWith(impersonateUserExtraHeaderPrefix))
    )
      return true;
  }
  return false;
}

/** Removes the impersonation headers, so nothing after the filter sees them. */
function deleteImpersonationHeaders(headers: IncomingHttpHeaders): void {
  for (const k of Object.keys(headers)) {
    if (
      k === impersonateUserHeader ||
      k === impersonateGroupHeader ||
      k === impersonateUidHeader ||
      k.startsWith(impersonateUserExtraHeaderPrefix)
    )
      delete headers[k];
  }
}

/**
 * The impersonation filter (kube-apiserver's `WithImpersonation`), between authentication and
 * authorization. A request with `Impersonate-User` (and optionally `Impersonate-Group`,
 * `Impersonate-Extra-<key>`, `Impersonate-Uid`) has the authorizer asked, as the authenticated
 * user, for verb `impersonate` on each thing it names; the first that is not an error-free Allow
 * answers Kubernetes' 403 Status. When all are allowed, `req.user` becomes the impersonated user,
 * `req.impersonator` keeps the one who sent the request, and the headers are removed.
 * Without an authorizer, or with AlwaysAllow, every impersonation is allowed (as kube's AlwaysAllow mode).
 */
export function installImpersonation(app: FastifyInstance, authorizer: Authorizer | undefined): void {
  const ask = authorizer && authorizer.name !== 'AlwaysAllow' ? authorizer : undefined;
  const become = (req: FastifyRequest, requests: readonly ImpersonationRequest[]): void => {
    const requestor = req.user;
    // Without an authenticator `user` is a prototype getter: define it on the request instead.
    Object.defineProperty(req, 'user', {
      value: impersonatedUser(requests),
      writable: true,
      enumerable: true,
      configurable: true,
    });
    req.impersonator = requestor;
    deleteImpersonationHeaders(req.headers);
  };
  const refuse = (reply: FastifyReply, done: (err?: Error) => void, err: ApiError): void => {
    reply.header('x-content-type-options', 'nosniff');
    done(err);
  };
  const refused = (d: Decision): boolean => d.decision !== 'Allow' || d.error !== undefined;
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (!asksToImpersonate(req.headers)) return done();
    let requests: ImpersonationRequest[];
    try {
      requests = impersonationRequests(headerLines(req.raw));
    } catch (e) {
      return refuse(reply, done, e as ApiError);
    }
    if (!requests.length) return done();
    if (!ask) {
      become(req, requests);
      return done();
    }
    const requestor = req.user;
    // Impersonation is rare: every check carries the signal the filter aborts when the client
    // goes away, which cuts a webhook call in flight and its retries (as the authorization filter).
    const controller = new AbortController();
    let i = 0;
    // Each check in turn; a decision given synchronously costs no promise and no listener.
    const next = (): void => {
      while (i < requests.length) {
        const attrs: RequestAttributes = {
          ...impersonationAttributes(requestor, requests[i]!),
          signal: controller.signal,
        };
        let d: Decision | Promise<Decision>;
        try {
          d = ask.authorize(attrs);
        } catch {
          return refuse(reply, done, impersonationForbidden(attrs, ''));
        }
        if (d instanceof Promise) {
          let gone = false;
          const stop = whileClientWaits(reply.raw, () => {
            gone = true;
            controller.abort();
          });
          d.then(
            (x) => {
              stop();
              if (gone) return;
              if (refused(x)) return refuse(reply, done, impersonationForbidden(attrs, x.reason));
              i++;
              next();
            },
            () => {
              stop();
              if (!gone) refuse(reply, done, impersonationForbidden(attrs, ''));
            },
          );
          return;
        }
        if (refused(d)) return refuse(reply, done, impersonationForbidden(attrs, d.reason));
        i++;
      }
      become(req, requests);
      done();
    };
    next();
  });
}
