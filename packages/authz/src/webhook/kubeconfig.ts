import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { AuthorizationError } from '../errors.js';

/**
 * How to reach one webhook, read from a kubeconfig-format file the way client-go's
 * non-interactive loader reads it: the current context picks one cluster and one user; file
 * paths are relative to the file; `-data` fields are base64.
 */
export interface WebhookConnection {
  /** `cluster.server`: the exact URL that is POSTed to; no path is appended. */
  readonly server: string;
  /** PEM trusted for the server (`certificate-authority[-data]`); undefined: the system roots. */
  readonly ca?: string;
  readonly insecureSkipTLSVerify: boolean;
  /** `tls-server-name`: the name checked in the server's certificate (and sent as SNI). */
  readonly tlsServerName?: string;
  /** Client certificate and key, PEM (`client-certificate[-data]`, `client-key[-data]`). */
  readonly clientCertificate?: string;
  readonly clientKey?: string;
  /** `token`. */
  readonly token?: string;
  /** `tokenFile`: re-read at most once a minute, as client-go does. */
  readonly tokenFile?: string;
}

type Named<K extends string> = { name?: string } & Record<K, Record<string, unknown> | undefined>;
interface KubeconfigDocument {
  clusters?: Named<'cluster'>[];
  users?: Named<'user'>[];
  contexts?: Named<'context'>[];
  'current-context'?: string;
}

const invalid = (file: string, msg: string, cause?: unknown): AuthorizationError =>
  new AuthorizationError('InvalidConnection', `${file}: ${msg}`, cause === undefined ? {} : { cause });

/** Reads a webhook's connection file. @throws AuthorizationError `InvalidConnection`. */
export function loadWebhookConnection(file: string): WebhookConnection {
  let doc: KubeconfigDocument;
  try {
    doc = (parse(readFileSync(file, 'utf8')) ?? {}) as KubeconfigDocument;
  } catch (e) {
    throw invalid(file, `invalid kubeconfig: ${(e as Error).message}`, e);
  }
  if (typeof doc !== 'object' || Array.isArray(doc)) throw invalid(file, 'invalid kubeconfig: not a mapping');
  const current = doc['current-context'] ?? '';
  if (!current) throw invalid(file, 'invalid configuration: no current-context is set');
  const find = <K extends 'cluster' | 'user' | 'context'>(list: Named<K>[] | undefined, name: string, key: K) =>
    (list ?? []).find((x) => x?.name === name)?.[key] as Record<string, unknown> | undefined;
  const context = find(doc.contexts, current, 'context');
  if (!context) throw invalid(file, `invalid configuration: context was not found for specified context: ${current}`);
  const clusterName = String(context['cluster'] ?? '');
  const cluster = find(doc.clusters, clusterName, 'cluster');
  if (!cluster) throw invalid(file, `invalid configuration: cluster "${clusterName}" not found`);
  const userName = String(context['user'] ?? '');
  const user = (userName ? find(doc.users, userName, 'user') : undefined) ?? {};
  const server = typeof cluster['server'] === 'string' ? cluster['server'] : '';
  if (!server) throw invalid(file, `invalid configuration: no server found for cluster "${clusterName}"`);
  try {
    const u = new URL(server);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`unsupported scheme ${u.protocol}`);
  } catch (e) {
    throw invalid(file, `invalid server URL ${JSON.stringify(server)}: ${(e as Error).message}`, e);
  }
  const dir = dirname(file);
  const str = (o: Record<string, unknown>, k: string): string | undefined =>
    typeof o[k] === 'string' && o[k] !== '' ? (o[k] as string) : undefined;
  const pem = (o: Record<string, unknown>, fileKey: string): string | undefined => {
    const data = str(o, `${fileKey}-data`);
    if (data) return Buffer.from(data, 'base64').toString('utf8');
    const path = str(o, fileKey);
    if (!path) return undefined;
    const full = isAbsolute(path) ? path : resolve(dir, path);
    try {
      return readFileSync(full, 'utf8');
    } catch (e) {
      throw invalid(file, `${fileKey}: ${(e as Error).message}`, e);
    }
  };
  const ca = pem(cluster, 'certificate-authority');
  const clientCertificate = pem(user, 'client-certificate');
  const clientKey = pem(user, 'client-key');
  if ((clientCertificate === undefined) !== (clientKey === undefined))
    throw invalid(file, 'invalid configuration: client-certificate and client-key must be given together');
  const tokenFile = str(user, 'tokenFile');
  const tlsServerName = str(cluster, 'tls-server-name');
  const token = str(user, 'token');
  return {
    server,
    insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
    ...(ca !== undefined ? { ca } : {}),
    ...(tlsServerName ? { tlsServerName } : {}),
    ...(clientCertificate !== undefined ? { clientCertificate, clientKey: clientKey! } : {}),
    ...(token ? { token } : {}),
    ...(tokenFile ? { tokenFile: isAbsolute(tokenFile) ? tokenFile : resolve(dir, tokenFile) } : {}),
  };
}
