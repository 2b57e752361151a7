import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCA, generateClientCert, generateServingCert } from '@kevents/api/testing';

/** PEM files of a test CA, a server certificate for 127.0.0.1/localhost and a client certificate, all signed by the CA. */
export interface TlsFiles {
  readonly caFile: string;
  readonly serverCertFile: string;
  readonly serverKeyFile: string;
  readonly clientCertFile: string;
  readonly clientKeyFile: string;
  /** The CA certificate, client certificate and key as text (for store options). */
  readonly ca: string;
  readonly clientCert: string;
  readonly clientKey: string;
}

/** Writes a fresh CA and server and client certificates (EC P-256) into `dir`. */
export async function writeTlsFiles(dir: string): Promise<TlsFiles> {
  const ca = await generateCA('kevents test CA');
  const server = await generateServingCert(ca, 'redis-server');
  const client = await generateClientCert(ca, 'kevents');
  const files = {
    caFile: join(dir, 'ca.crt'),
    serverCertFile: join(dir, 'server.crt'),
    serverKeyFile: join(dir, 'server.key'),
    clientCertFile: join(dir, 'client.crt'),
    clientKeyFile: join(dir, 'client.key'),
  };
  writeFileSync(files.caFile, ca.cert);
  writeFileSync(files.serverCertFile, server.cert);
  writeFileSync(files.serverKeyFile, server.key, { mode: 0o600 });
  writeFileSync(files.clientCertFile, client.cert);
  writeFileSync(files.clientKeyFile, client.key, { mode: 0o600 });
  return { ...files, ca: ca.cert, clientCert: client.cert, clientKey: client.key };
}

/** redis-server arguments for a TLS port (clients must present a certificate from the CA, Redis's default). */
export const redisTlsArgs = (tlsPort: number, files: TlsFiles): string[] => [
  '--tls-port',
  String(tlsPort),
  '--tls-cert-file',
  files.serverCertFile,
  '--tls-key-file',
  files.serverKeyFile,
  '--tls-ca-cert-file',
  files.caFile,
];
