import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';

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

type Extensions = NonNullable<Parameters<typeof generate>[1]>['extensions'];

/** Writes a fresh CA and server and client certificates (EC P-256) into `dir`. */
export async function writeTlsFiles(dir: string): Promise<TlsFiles> {
  const ca = await generate([{ name: 'commonName', value: 'kevents test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ] as Extensions,
  } as Parameters<typeof generate>[1]);
  const leaf = (cn: string, usage: { serverAuth?: boolean; clientAuth?: boolean }) =>
    generate([{ name: 'commonName', value: cn }], {
      keyType: 'ec',
      algorithm: 'sha256',
      ca: { key: ca.private, cert: ca.cert },
      extensions: [
        { name: 'basicConstraints', cA: false, critical: true },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', ...usage },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ] as Extensions,
    } as Parameters<typeof generate>[1]);
  const server = await leaf('redis-server', { serverAuth: true });
  const client = await leaf('kevents', { clientAuth: true });
  const files = {
    caFile: join(dir, 'ca.crt'),
    serverCertFile: join(dir, 'server.crt'),
    serverKeyFile: join(dir, 'server.key'),
    clientCertFile: join(dir, 'client.crt'),
    clientKeyFile: join(dir, 'client.key'),
  };
  writeFileSync(files.caFile, ca.cert);
  writeFileSync(files.serverCertFile, server.cert);
  writeFileSync(files.serverKeyFile, server.private, { mode: 0o600 });
  writeFileSync(files.clientCertFile, client.cert);
  writeFileSync(files.clientKeyFile, client.private, { mode: 0o600 });
  return { ...files, ca: ca.cert, clientCert: client.cert, clientKey: client.private };
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
