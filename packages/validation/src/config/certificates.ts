import { X509Certificate } from 'node:crypto';

/**
 * client-go `cert.NewPoolFromBytes`: the data must hold at least one PEM `CERTIFICATE` block
 * without headers that parses as X.509. Returns the error text, or undefined when valid.
 */
export function certificatePoolError(data: string): string | undefined {
  const re = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g;
  let found = false;
  for (let m = re.exec(data); m; m = re.exec(data)) {
    if (m[1] !== 'CERTIFICATE' || /^[A-Za-z-]+:/m.test(m[2]!)) continue;
    try {
      new X509Certificate(Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64'));
      found = true;
    } catch (e) {
      return `x509: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  return found ? undefined : 'data does not contain any valid RSA or ECDSA certificates';
}
