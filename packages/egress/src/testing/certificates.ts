import { generate } from 'selfsigned';

type Options = NonNullable<Parameters<typeof generate>[1]>;
type Extensions = Options['extensions'];
type Attributes = Parameters<typeof generate>[0];

/** A PEM certificate and its private key. */
export interface KeyPair {
  readonly cert: string;
  readonly key: string;
}

/** A fresh CA (EC P-256) for one test run or one dev issuer. */
export async function generateCA(commonName: string): Promise<KeyPair> {
  const ca = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ] as Extensions,
  } as Options);
  return { cert: ca.cert, key: ca.private };
}

/** A serving certificate for localhost/127.0.0.1/::1 signed by `ca`. */
export async function generateServingCert(ca: KeyPair, commonName = 'localhost'): Promise<KeyPair> {
  const leaf = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.key, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ] as Extensions,
  } as Options);
  return { cert: leaf.cert, key: leaf.private };
}

/**
 * A client certificate signed by `ca`: Common Name `user`, one Organization per group (how
 * kubeconfigs carry a user for `--client-ca-file`).
 */
export async function generateClientCert(
  ca: KeyPair,
  user: string,
  groups: readonly string[] = [],
  options: { usage?: 'clientAuth' | 'serverAuth'; notAfter?: Date } = {},
): Promise<KeyPair> {
  const attrs: Attributes = [
    ...groups.map((g) => ({ name: 'organizationName', value: g })),
    { name: 'commonName', value: user },
  ];
  const leaf = await generate(attrs, {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.key, cert: ca.cert },
    ...(options.notAfter
      ? { notBeforeDate: new Date(options.notAfter.getTime() - 86_400_000), notAfterDate: options.notAfter }
      : {}),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', [options.usage ?? 'clientAuth']: true },
    ] as Extensions,
  } as Options);
  return { cert: leaf.cert, key: leaf.private };
}

/**
 * A leaf certificate signed by `ca`: a server certificate for `names` (DNS names; 127.0.0.1 and
 * ::1 are always included), or a client certificate with Common Name `names[0]`.
 */
export async function generateLeaf(
  ca: KeyPair,
  usage: 'server' | 'client',
  names: readonly string[],
): Promise<KeyPair> {
  const leaf = await generate([{ name: 'commonName', value: names[0] ?? 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.key, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', [usage === 'server' ? 'serverAuth' : 'clientAuth']: true },
      ...(usage === 'server'
        ? [
            {
              name: 'subjectAltName',
              altNames: [
                ...names.map((value) => ({ type: 2, value })),
                { type: 7, ip: '127.0.0.1' },
                { type: 7, ip: '::1' },
              ],
            },
          ]
        : []),
    ] as Extensions,
  } as Options);
  return { cert: leaf.cert, key: leaf.private };
}
