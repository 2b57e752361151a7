import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as k8s from '@kubernetes/client-node';
import { request, startTestServer } from '../testing/server.js';
import type { TestServer } from '../testing/server.js';
import { apiError, kubeConfigFor } from '../testing/client-node.js';

/** Server-side apply from client libraries: @kubernetes/client-node, and the Python client's dynamic client. */

let srv: TestServer;
let kc: k8s.KubeConfig;

beforeAll(async () => {
  srv = await startTestServer();
  kc = kubeConfigFor(srv.url);
});
afterAll(async () => srv?.close());

const lease = (name: string, holder: string): k8s.V1Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, namespace: 'apply' },
  spec: { holderIdentity: holder, leaseDurationSeconds: 15 },
});

describe('@kubernetes/client-node with the apply patch content type', () => {
  it('KubernetesObjectApi.patch with PatchStrategy.ServerSideApply creates, updates and reports conflicts', async () => {
    const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
    const created = await objects.patch(
      lease('c1', 'a'),
      undefined,
      undefined,
      'operator',
      undefined,
      k8s.PatchStrategy.ServerSideApply,
    );
    expect(created.metadata?.managedFields?.map((e) => [e.manager, e.operation])).toEqual([['operator', 'Apply']]);
    const failed = await apiError(
      objects.patch(lease('c1', 'b'), undefined, undefined, 'other', undefined, k8s.PatchStrategy.ServerSideApply),
    );
    expect(failed.code).toBe(409);
    expect(failed.body.message).toBe('Apply failed with 1 conflict: conflict with "operator": .spec.holderIdentity');
    const forced = await objects.patch(
      lease('c1', 'b'),
      undefined,
      undefined,
      'other',
      true,
      k8s.PatchStrategy.ServerSideApply,
    );
    expect((forced as k8s.V1Lease).spec?.holderIdentity).toBe('b');
  });

  it('the typed CoordinationV1Api patch with the apply Content-Type header', async () => {
    const api = kc.makeApiClient(k8s.CoordinationV1Api);
    const out = await api.patchNamespacedLease(
      { name: 'c2', namespace: 'apply', body: lease('c2', 'x'), fieldManager: 'typed' },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply),
    );
    expect(out.spec?.holderIdentity).toBe('x');
    expect(out.metadata?.managedFields?.[0]).toMatchObject({ manager: 'typed', operation: 'Apply' });
    const missing = await apiError(
      api.patchNamespacedLease(
        { name: 'c2', namespace: 'apply', body: lease('c2', 'y') },
        k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply),
      ),
    );
    expect(missing.code).toBe(422);
    expect(missing.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
  });
});

/** Debian's python3-kubernetes (`apt-get install -y python3-kubernetes`) is the system Python's. */
const python = '/usr/bin/python3';

function pythonHasKubernetes(): Promise<boolean> {
  if (!existsSync(python)) return Promise.resolve(false);
  return new Promise((resolve) => execFile(python, ['-c', 'import kubernetes.dynamic'], (err) => resolve(!err)));
}

const script = `
import json, sys
from kubernetes import client, dynamic
cfg = client.Configuration()
cfg.host = sys.argv[1]
dyn = dynamic.DynamicClient(client.ApiClient(cfg))
leases = dyn.resources.get(api_version="coordination.k8s.io/v1", kind="Lease")
body = {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
        "metadata": {"name": "py", "namespace": "apply"}, "spec": {"holderIdentity": "python"}}
# python3-kubernetes 22.6's REST layer serializes only "json" content types: a dict body for
# application/apply-patch+yaml fails in the client before any request (on any server). A body
# given as text (JSON is YAML) is sent as it is.
try:
    leases.server_side_apply(body=body, name="py", namespace="apply", field_manager="python-client")
    dict_body = "sent"
except Exception as e:
    dict_body = "refused by the client" if "Cannot prepare a request message" in str(e) else str(e)
out = leases.server_side_apply(body=json.dumps(body), name="py", namespace="apply", field_manager="python-client")
body["spec"]["holderIdentity"] = "other"
try:
    leases.server_side_apply(body=json.dumps(body), name="py", namespace="apply", field_manager="someone-else")
    conflict = None
except Exception as e:
    conflict = json.loads(e.body)["message"]
forced = leases.server_side_apply(body=json.dumps(body), name="py", namespace="apply",
                                  field_manager="someone-else", force_conflicts=True)
print(json.dumps({"dict_body": dict_body, "holder": out.spec.holderIdentity,
                  "managers": [[m.manager, m.operation] for m in out.metadata.managedFields],
                  "conflict": conflict, "forced": forced.spec.holderIdentity}))
`;

describe("the Python client's dynamic client server_side_apply", () => {
  it('applies and gets the conflict (skipped with a reason when python3-kubernetes is not installed, unless CI requires it)', async () => {
    if (!(await pythonHasKubernetes()) && process.env['KEVENTS_PYTHON_KUBERNETES'] !== 'required') {
      console.warn(`skipped: ${python} cannot import kubernetes (install Debian's python3-kubernetes)`);
      return;
    }
    const out = await new Promise<string>((resolve, reject) =>
      execFile(python, ['-c', script, srv.url], { timeout: 30_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    expect(JSON.parse(out)).toEqual({
      dict_body: 'refused by the client',
      forced: 'other',
      holder: 'python',
      managers: [['python-client', 'Apply']],
      conflict: 'Apply failed with 1 conflict: conflict with "python-client": .spec.holderIdentity',
    });
    expect((await request(`${srv.url}/apis/coordination.k8s.io/v1/namespaces/apply/leases/py`)).status).toBe(200);
  });
});
