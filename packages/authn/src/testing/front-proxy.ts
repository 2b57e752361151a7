import { createServer, request as httpsRequest } from 'node:https';
import type { Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { KeyPair } from '@kevents/api/testing';

/** Options of {@link startFrontProxy}. */
export interface FrontProxyOptions {
  /** The proxy's serving certificate (kube-apiserver's, signed by the cluster CA). */
  readonly serving: KeyPair;
  /** The CA that signs the callers' client certificates (the cluster's client CA). */
  readonly clusterClientCA: string;
  /** The front-proxy client certificate presented to the backend (signed by the requestheader CA). */
  readonly frontProxyClient: KeyPair;
  /** The backend's origin, `https://host:port` (the APIService's Service). */
  readonly backend: string;
  /** Verify the backend's serving certificate with this CA (the APIService's caBundle); default: not verified. */
  readonly backendCA?: string;
}

/** A running {@link startFrontProxy}. */
export interface FrontProxy {
  /** `https://127.0.0.1:<port>`. */
  readonly url: string;
  /** The headers of every request forwarded to the backend, in order. */
  readonly forwarded: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/**
 * A stand-in for kube-aggregator's proxy: serves TLS, authenticates the caller by its client
 * certificate (CN the user, O the groups, plus `system:authenticated`), drops the caller's
 * credentials and any front-proxy headers it sent, and forwards the request to the backend over
 * TLS with the front-proxy client certificate and `X-Remote-User`/`X-Remote-Group`, streaming the
 * answer back (watches included).
 */
export async function startFrontProxy(o: FrontProxyOptions): Promise<FrontProxy> {
  const forwarded: IncomingHttpHeaders[] = [];
  const server: Server = createServer(
    { cert: o.serving.cert, key: o.serving.key, ca: o.clusterClientCA, requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      const org = peer.subject.O;
      const groups = [...(org === undefined ? [] : Array.isArray(org) ? org : [org]), 'system:authenticated'];
      const headers: IncomingHttpHeaders = {};
      for (const [k, v] of Object.entries(req.headers))
        if (!/^(authorization|host|connection|x-remote-.*)$/.test(k)) headers[k] = v;
      headers['x-remote-user'] = String(peer.subject.CN);
      (headers as Record<string, string[]>)['x-remote-group'] = groups;
      forwarded.push(headers);
      const up = httpsRequest(
        `${o.backend}${req.url ?? '/'}`,
        {
          method: req.method ?? 'GET',
          headers,
          cert: o.frontProxyClient.cert,
          key: o.frontProxyClient.key,
          ...(o.backendCA ? { ca: o.backendCA } : { rejectUnauthorized: false }),
          agent: false,
        },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      res.on('close', () => up.destroy());
      req.pipe(up);
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    forwarded,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
