import type { generate as Generate } from 'selfsigned';

type Options = NonNullable<Parameters<typeof Generate>[1]>;
type Extensions = Options['extensions'];
type Attributes = NonNullable<Parameters<typeof Generate>[0]>;

/** A PEM certificate and its private key. */
export interface KeyPair {
  readonly cert: string;
  readonly key: string;
}

/**
 * An EC P-256 certificate with `extensions`, signed by `ca` (self-signed without one). selfsigned, an
 * optional peer of this entry point, is loaded on the first certificate, so that the other helpers load
 * without it.
 */
async function issue(
  ca: KeyPair | undefined,
  subject: Attributes,
  extensions: Extensions,
  notAfter?: Date,
): Promise<KeyPair> {
  const { generate } = await import('selfsigned');
  const pems = await generate(subject, {
    keyType: 'ec',
    algorithm: 'sha256',
    ...(ca ? { ca: { key: ca.key, cert: ca.cert } } : {}),
    ...(notAfter ? { notBeforeDate: new Date(notAfter.getTime() - 86_400_000), notAfterDate: notAfter } : {}),
    extensions,
  } as Options);
  return { cert: pems.cert, key: pems.private };
}

/**
 * The extensions of a leaf for `usage`; with `dnsNames`, those, 127.0.0.1 and ::1 as subject alternative
 * names (a server's).
 */
function leafExtensions(usage: 'serverAuth' | 'clientAuth', dnsNames?: readonly string[]): Extensions {
  return [
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', [usage]: true },
    ...(dnsNames
      ? [
          {
            name: 'subjectAltName',
            altNames: [
              ...dnsNames.map((value) => ({ type: 2, value })),
              { type: 7, ip: '127.0.0.1' },
              { type: 7, ip: '::1' },
            ],
          },
        ]
      : []),
  ] as Extensions;
}

/** A fresh CA (EC P-256) for one test run or one dev issuer. */
export function generateCA(commonName: string): Promise<KeyPair> {
  return issue(undefined, [{ name: 'commonName', value: commonName }], [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
  ] as Extensions);
}

/** A serving certificate for localhost/127.0.0.1/::1 signed by `ca`. */
export function generateServingCert(ca: KeyPair, commonName = 'localhost'): Promise<KeyPair> {
  return issue(ca, [{ name: 'commonName', value: commonName }], leafExtensions('serverAuth', ['localhost']));
}

/**
 * A client certificate signed by `ca`: Common Name `user`, one Organization per group (how
 * kubeconfigs carry a user for `--client-ca-file`); `usage` serverAuth makes one a client must refuse,
 * `notAfter` one that expires then (valid from a day before).
 */
export function generateClientCert(
  ca: KeyPair,
  user: string,
  groups: readonly string[] = [],
  options: { usage?: 'clientAuth' | 'serverAuth'; notAfter?: Date } = {},
): Promise<KeyPair> {
  const subject: Attributes = [
    ...groups.map((g) => ({ name: 'organizationName', value: g })),
    { name: 'commonName', value: user },
  ];
  return issue(ca, subject, leafExtensions(options.usage ?? 'clientAuth'), options.notAfter);
}

/**
 * A leaf certificate signed by `ca`: a server certificate for `names` (DNS names; 127.0.0.1 and
 * ::1 are always included), or a client certificate with Common Name `names[0]`.
 */
export function generateLeaf(ca: KeyPair, usage: 'server' | 'client', names: readonly string[]): Promise<KeyPair> {
  const subject = [{ name: 'commonName', value: names[0] ?? 'localhost' }];
  return usage === 'server'
    ? issue(ca, subject, leafExtensions('serverAuth', names))
    : issue(ca, subject, leafExtensions('clientAuth'));
}
