#!/usr/bin/env node
// A local OpenID Connect issuer for kevents (HTTPS with its own CA, discovery, JWKS with key
// rotation) and a token-minting command. State (CA, serving pair, signing keys) lives in --dir so
// `mint` and `rotate` work from another shell while `serve` runs. Needs `npm run build`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { OidcIssuer } from '@kevents/authn/testing';

const usage = `Usage: node tools/dev-issuer/main.js <command> [flags]

Commands:
  serve    Serve the issuer on https://127.0.0.1:<port> until interrupted; prints the issuer URL
           and the AuthenticationConfiguration snippet to use it.
  mint     Print a signed token (sub, aud, groups, email, expiry from the flags).
  rotate   Add a new signing key and retire the old ones (tokens they signed stop verifying).

Flags:
  --dir DIR          state directory (default .dev-issuer)
  --port N           serve: port (default 8443)
  --alg ALG          serve/rotate: signing algorithm, one of RS256 RS384 RS512 ES256 ES384 ES512
                     PS256 PS384 PS512 (default RS256)
  --sub NAME         mint: subject (default dev-user)
  --aud AUD          mint: audience (default kevents)
  --groups A,B       mint: groups claim
  --email ADDR       mint: email claim (with email_verified: true)
  --ttl SECONDS      mint: lifetime (default 3600)
  -h, --help         this help
`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    dir: { type: 'string', default: '.dev-issuer' },
    port: { type: 'string', default: '8443' },
    alg: { type: 'string', default: 'RS256' },
    sub: { type: 'string', default: 'dev-user' },
    aud: { type: 'string', default: 'kevents' },
    groups: { type: 'string' },
    email: { type: 'string' },
    ttl: { type: 'string', default: '3600' },
    help: { type: 'boolean', short: 'h' },
  },
});
const command = positionals[0];
if (values.help || !command) {
  process.stdout.write(usage);
  process.exit(values.help ? 0 : 2);
}

const port = Number(values.port);
if (command === 'serve') {
  const issuer = await OidcIssuer.start({ port, stateDir: values.dir, alg: values.alg });
  process.stdout.write(`issuer: ${issuer.url}\nCA: ${join(values.dir, 'ca.crt')}\n\n`);
  process.stdout.write(`# AuthenticationConfiguration (apiserver.config.k8s.io/v1beta1)
apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthenticationConfiguration
jwt:
  - issuer:
      url: ${issuer.url}
      audiences: [kevents]
      certificateAuthority: |
${issuer.ca.cert
  .trim()
  .split('\n')
  .map((l) => `        ${l}`)
  .join('\n')}
    claimMappings:
      username: { claim: sub, prefix: 'dev:' }
      groups: { claim: groups, prefix: '' }
`);
  const stop = () => void issuer.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else if (command === 'mint' || command === 'rotate') {
  // Sign offline with the keys in --dir; the URL is the one `serve` uses for this port.
  const keys = JSON.parse(readFileSync(join(values.dir, 'keys.json'), 'utf8'));
  if (!keys.length) throw new Error(`no keys in ${values.dir}; run serve first`);
  const issuer = await OidcIssuer.start({ port: 0, stateDir: values.dir });
  try {
    if (command === 'rotate') {
      const kid = await issuer.rotate(values.alg);
      process.stdout.write(`new signing key ${kid}\n`);
    } else {
      const now = Math.floor(Date.now() / 1000);
      const token = await issuer.mint({
        iss: `https://127.0.0.1:${port}`,
        sub: values.sub,
        aud: values.aud,
        exp: now + Number(values.ttl),
        ...(values.groups ? { groups: values.groups.split(',') } : {}),
        ...(values.email ? { email: values.email, email_verified: true } : {}),
      });
      process.stdout.write(`${token}\n`);
    }
  } finally {
    await issuer.stop();
  }
} else {
  process.stderr.write(`unknown command ${command}\n${usage}`);
  process.exit(2);
}
