import * as k8s from '@kubernetes/client-node';

/** A client-node KubeConfig for one kevents server (anonymous, TLS verification off for test certificates). */
export function kubeConfigFor(url: string): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'kevents', server: url, skipTLSVerify: true }],
    users: [{ name: 'anonymous' }],
    contexts: [{ name: 'kevents', cluster: 'kevents', user: 'anonymous' }],
    currentContext: 'kevents',
  });
  return kc;
}

/** The HTTP code and Status of a client-node call that must fail. */
export async function apiError(p: Promise<unknown>): Promise<{ code: number; body: k8s.V1Status }> {
  try {
    await p;
  } catch (err) {
    const e = err as k8s.ApiException<string>;
    return { code: e.code, body: JSON.parse(e.body) as k8s.V1Status };
  }
  throw new Error('expected the call to fail');
}
