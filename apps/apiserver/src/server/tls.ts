import { readFile } from 'node:fs/promises';
import { generate } from 'selfsigned';

/** A serving key pair in PEM, and whether it was generated. */
export interface ServingCert {
  readonly cert: string;
  readonly key: string;
  readonly generated: boolean;
}

/** Reads `--tls-cert-file`/`--tls-private-key-file`, or generates a self-signed pair for the host. */
export async function servingCert(certFile: string, keyFile: string, host: string): Promise<ServingCert> {
  if (certFile || keyFile) {
    if (!certFile || !keyFile) throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
    return { cert: await readFile(certFile, 'utf8'), key: await readFile(keyFile, 'utf8'), generated: false };
  }
  const altNames = [
    { type: 2 as const, value: 'localhost' },
    { type: 7 as const, ip: '127.0.0.1' },
    { type: 7 as const, ip: '::1' },
    ...(host && host !== '127.0.0.1' && host !== '0.0.0.0'
      ? [/^[\d.:]+$/.test(host) ? { type: 7 as const, ip: host } : { type: 2 as const, value: host }]
      : []),
  ];
  const pems = await generate([{ name: 'commonName', value: 'kevents-apiserver' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames }],
  } as Parameters<typeof generate>[1]);
  return { cert: pems.cert, key: pems.private, generated: true };
}
