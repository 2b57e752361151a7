import * as k8s from '@kubernetes/client-node';
import { FlagError } from '@kevents/cli';

/** One `--mirror-source=NAME=KUBECONFIG`. */
export interface MirrorSource {
  /** The `kevents.io/cluster` label value: a DNS-1123 label. */
  readonly name: string;
  /** A kubeconfig path (its current context), or `in-cluster` for the pod's service account. */
  readonly kubeconfig: string;
}

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Parses the `--mirror-source` values; names must be DNS-1123 labels and distinct. */
export function parseMirrorSources(values: readonly string[]): MirrorSource[] {
  const out: MirrorSource[] = [];
  for (const v of values) {
    const eq = v.indexOf('=');
    const name = eq < 0 ? '' : v.slice(0, eq);
    const kubeconfig = eq < 0 ? '' : v.slice(eq + 1);
    if (!name || !kubeconfig)
      throw new FlagError(
        `invalid argument "${v}" for "--mirror-source" flag: want NAME=KUBECONFIG or NAME=in-cluster`,
      );
    if (name.length > 63 || !dnsLabel.test(name))
      throw new FlagError(
        `invalid argument "${v}" for "--mirror-source" flag: the name must be a DNS-1123 label (lowercase letters, digits and '-', at most 63)`,
      );
    if (out.some((s) => s.name === name))
      throw new FlagError(`invalid argument "${v}" for "--mirror-source" flag: the name "${name}" is given twice`);
    out.push({ name, kubeconfig });
  }
  return out;
}

/** The client-node KubeConfig of a source: the file's current context, or the pod's service account. */
export function sourceKubeConfig(s: MirrorSource): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  if (s.kubeconfig === 'in-cluster') kc.loadFromCluster();
  else kc.loadFromFile(s.kubeconfig);
  const cur = kc.getCurrentCluster();
  if (!cur) throw new Error(`mirror source ${s.name}: ${s.kubeconfig} has no current cluster`);
  // client-node refuses plain http unless skipTLSVerify is set (kubectl does not): there is no TLS to verify.
  if (cur.server.startsWith('http:') && !cur.skipTLSVerify) {
    const out = new k8s.KubeConfig();
    out.loadFromOptions({
      clusters: kc.clusters.map((c) => (c.name === cur.name ? { ...c, skipTLSVerify: true } : c)),
      users: kc.users,
      contexts: kc.contexts,
      currentContext: kc.currentContext,
    });
    return out;
  }
  return kc;
}
