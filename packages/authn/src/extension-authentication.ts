import type { AuthenticationHeaders, AuthenticationRequest, AuthenticationResponse, Authenticator } from '@kevents/api';
import { RequestHeaderAuthenticator } from './request-header.js';
import type { RequestHeaderConfig } from './request-header.js';
import { X509Authenticator } from './x509.js';

/** The ConfigMap kube-apiserver publishes for extension API servers. */
export const extensionAuthenticationConfigMap = {
  namespace: 'kube-system',
  name: 'extension-apiserver-authentication',
  path: '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication',
} as const;

/** What the ConfigMap says: the client CA and the request-header settings, each when present. */
export interface ExtensionAuthenticationData {
  readonly clientCA?: string;
  readonly requestHeader?: RequestHeaderConfig;
}

/** k8s.io/apiserver's `deserializeStrings`: a JSON array of strings; empty text is none. */
function strings(data: Record<string, string>, key: string): string[] {
  const text = data[key] ?? '';
  if (text === '') return [];
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new Error(`${key}: ${(e as Error).message}`, { cause: e });
  }
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw new Error(`${key}: json: cannot unmarshal into Go value of type []string`);
  return v as string[];
}

/**
 * Reads `kube-system/extension-apiserver-authentication` as k8s.io/apiserver does: `client-ca-file`
 * (PEM), `requestheader-client-ca-file` (PEM) and, as JSON string arrays,
 * `requestheader-allowed-names`, `-username-headers`, `-uid-headers`, `-group-headers` and
 * `-extra-headers-prefix` (a missing list is empty). No request-header CA: no request-header
 * settings. @throws Error when a list does not decode.
 */
export function parseExtensionAuthentication(configMap: {
  data?: Record<string, string>;
}): ExtensionAuthenticationData {
  const data = configMap.data ?? {};
  const clientCA = data['client-ca-file'] || undefined;
  const rhCA = data['requestheader-client-ca-file'] || undefined;
  return {
    ...(clientCA ? { clientCA } : {}),
    ...(rhCA
      ? {
          requestHeader: {
            clientCA: rhCA,
            allowedNames: strings(data, 'requestheader-allowed-names'),
            usernameHeaders: strings(data, 'requestheader-username-headers'),
            uidHeaders: strings(data, 'requestheader-uid-headers'),
            groupHeaders: strings(data, 'requestheader-group-headers'),
            extraHeaderPrefixes: strings(data, 'requestheader-extra-headers-prefix'),
          },
        }
      : {}),
  };
}

/** Options of {@link ExtensionAuthentication}. */
export interface ExtensionAuthenticationOptions {
  /** GETs the ConfigMap from the cluster: the HTTP status and body. */
  readonly get: () => Promise<{ status: number; body: string }>;
  /** Take the client CA from the ConfigMap (no `--client-ca-file`). */
  readonly clientCA: boolean;
  /** Take the request-header settings from the ConfigMap (no `--requestheader-client-ca-file`). */
  readonly requestHeader: boolean;
  /** How often the ConfigMap is read again; default 60 s. */
  readonly pollMs?: number;
  readonly log?: { info(o: object, msg: string): void; warn(o: object, msg: string): void };
}

/**
 * The client CA and request-header settings of the `extension-apiserver-authentication`
 * ConfigMap, read at start ({@link ExtensionAuthentication.load}, which fails as
 * k8s.io/apiserver's lookup fails: any error but a missing ConfigMap) and read again every
 * `pollMs`; a change is applied to the next request, a failed or invalid read keeps what is in
 * force. {@link requestHeaderMember} and {@link x509Member} are the chain's members.
 */
export class ExtensionAuthentication {
  #requestHeader: RequestHeaderAuthenticator | undefined;
  #x509: X509Authenticator | undefined;
  #text: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #o: ExtensionAuthenticationOptions;

  constructor(o: ExtensionAuthenticationOptions) {
    this.#o = o;
  }

  /** The request-header authenticator in force (none while the ConfigMap has no request-header CA). */
  readonly requestHeaderMember: Authenticator = {
    authenticate: (
      req: AuthenticationRequest,
    ): AuthenticationResponse | null | Promise<AuthenticationResponse | null> =>
      this.#requestHeader ? this.#requestHeader.authenticate(req) : null,
  };

  /** The client-certificate authenticator in force (none while the ConfigMap has no client CA). */
  readonly x509Member: Authenticator = {
    authenticate: (req: AuthenticationRequest): Promise<AuthenticationResponse | null> | null =>
      this.#x509 ? this.#x509.authenticate(req) : null,
  };

  /** The front-proxy headers in force. */
  get headerNames(): AuthenticationHeaders | undefined {
    return this.#requestHeader?.headerNames;
  }

  /** What is in force, for the startup log. */
  get summary(): string {
    const parts: string[] = [];
    if (this.#requestHeader) parts.push(`front-proxy headers (${this.#requestHeader.headerNames.names.join(',')})`);
    if (this.#x509) parts.push('client certificates');
    return `${parts.length ? parts.join(' and ') : 'nothing'} from ${extensionAuthenticationConfigMap.namespace}/${extensionAuthenticationConfigMap.name}`;
  }

  /** Reads the ConfigMap once and applies it. A missing ConfigMap (404) applies nothing. @throws Error otherwise. */
  async load(): Promise<void> {
    const res = await this.#o.get();
    if (res.status === 404) return this.#apply('', {});
    if (res.status < 200 || res.status > 299) {
      let message = res.body;
      try {
        message = (JSON.parse(res.body) as { message?: string }).message ?? res.body;
      } catch {
        /* not a Status */
      }
      throw new Error(
        `unable to get configmap/${extensionAuthenticationConfigMap.name} in ${extensionAuthenticationConfigMap.namespace}: ${message}`,
      );
    }
    this.#apply(res.body, JSON.parse(res.body) as { data?: Record<string, string> });
  }

  #apply(text: string, cm: { data?: Record<string, string> }): void {
    if (text === this.#text) return;
    const d = parseExtensionAuthentication(cm);
    const rh = this.#o.requestHeader && d.requestHeader ? new RequestHeaderAuthenticator(d.requestHeader) : undefined;
    const x = this.#o.clientCA && d.clientCA ? new X509Authenticator(d.clientCA) : undefined;
    const first = this.#text === undefined;
    this.#requestHeader = rh;
    this.#x509 = x;
    this.#text = text;
    if (!first) this.#o.log?.info({}, `authentication: ${this.summary} (changed)`);
  }

  /** Starts reading the ConfigMap again every `pollMs`. */
  start(): void {
    const tick = (): void => {
      this.#timer = setTimeout(() => {
        this.load()
          .catch((e: unknown) =>
            this.#o.log?.warn(
              { err: e instanceof Error ? e.message : String(e) },
              `authentication: reading ${extensionAuthenticationConfigMap.name} failed; keeping the settings in force`,
            ),
          )
          .finally(() => {
            if (this.#timer) tick();
          });
      }, this.#o.pollMs ?? 60_000);
      this.#timer.unref();
    };
    tick();
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
