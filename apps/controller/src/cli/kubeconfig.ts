import { readFileSync } from 'node:fs';
import * as k8s from '@kubernetes/client-node';
import type { FlagValues } from './flags.js';

/**
 * The client-node KubeConfig the flags describe: `--server` (with `--token` or client
 * certificate flags), else `--kubeconfig` (and `--context`), else client-node's defaults
 * ($KUBECONFIG, in-cluster service account, ~/.kube/config).
 */
export function kubeConfigFromFlags(flags: FlagValues): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  if (flags['server']) {
    const read = (f: string): string | undefined => (f ? readFileSync(f, 'utf8') : undefined);
    kc.loadFromOptions({
      clusters: [
        {
          name: 'server',
          server: flags['server'],
          caData: b64(read(flags['certificate-authority']!)),
          skipTLSVerify: flags['insecure-skip-tls-verify'] === 'true' || flags['server'].startsWith('http:'),
        },
      ],
      users: [
        {
          name: 'user',
          token: flags['token'] || undefined,
          certData: b64(read(flags['client-certificate']!)),
          keyData: b64(read(flags['client-key']!)),
        },
      ],
      contexts: [{ name: 'server', cluster: 'server', user: 'user' }],
      currentContext: 'server',
    });
    return kc;
  }
  if (flags['kubeconfig']) kc.loadFromFile(flags['kubeconfig']);
  else kc.loadFromDefault();
  if (flags['context']) kc.setCurrentContext(flags['context']);
  if (!kc.getCurrentCluster()) throw new Error('no cluster: give --server or --kubeconfig');
  return kc;
}

const b64 = (s: string | undefined): string | undefined =>
  s === undefined ? undefined : Buffer.from(s).toString('base64');
