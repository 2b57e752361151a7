import { readFileSync } from 'node:fs';
import * as k8s from '@kubernetes/client-node';
import { FlagError } from '@kevents/cli';
import type { ControllerOptions } from './flags.js';

/**
 * The client-node KubeConfig the options describe: `--server` (with `--token` or client
 * certificate flags), else `--kubeconfig` (and `--context`), else client-node's defaults
 * ($KUBECONFIG, in-cluster service account, ~/.kube/config).
 */
export function kubeConfigFromFlags(
  options: Pick<
    ControllerOptions,
    | 'server'
    | 'token'
    | 'clientCertificate'
    | 'clientKey'
    | 'certificateAuthority'
    | 'insecureSkipTlsVerify'
    | 'kubeconfig'
    | 'context'
  >,
): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  if (options.server) {
    const read = (f: string): string | undefined => (f ? readFileSync(f, 'utf8') : undefined);
    kc.loadFromOptions({
      clusters: [
        {
          name: 'server',
          server: options.server,
          caData: b64(read(options.certificateAuthority)),
          skipTLSVerify: options.insecureSkipTlsVerify || options.server.startsWith('http:'),
        },
      ],
      users: [
        {
          name: 'user',
          token: options.token || undefined,
          certData: b64(read(options.clientCertificate)),
          keyData: b64(read(options.clientKey)),
        },
      ],
      contexts: [{ name: 'server', cluster: 'server', user: 'user' }],
      currentContext: 'server',
    });
    return kc;
  }
  if (options.kubeconfig) {
    try {
      kc.loadFromFile(options.kubeconfig);
    } catch (err) {
      throw new FlagError(`--kubeconfig=${options.kubeconfig}: ${(err as Error).message}`);
    }
  } else kc.loadFromDefault();
  if (options.context) kc.setCurrentContext(options.context);
  if (!kc.getCurrentCluster()) throw new FlagError('no cluster: give --server or --kubeconfig');
  return kc;
}

const b64 = (s: string | undefined): string | undefined =>
  s === undefined ? undefined : Buffer.from(s).toString('base64');
