/* eslint-disable @typescript-eslint/no-explicit-any -- rendered YAML is untyped */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { freePort } from '@kevents/controller-runtime/testing';
import { describeIfTools } from './gate.js';
import { byKind, renderChart, rendererMissing, type Rendered } from './renderer.js';

/**
 * The rendered chart run for real: its Deployments, ConfigMaps and Secrets played with
 * `podman kube play` (the images of tools/images/build.js), and the apiserver answering kubectl.
 * podman has no Services or cluster DNS: each pod gets a fixed IP on a network of its own and
 * the chart's `hostAliases` map the Service names the pods use to those IPs (what the Service and
 * cluster DNS do in Kubernetes); the Service port is set to the container port, as kube-proxy
 * would translate it.
 */

function sh(cmd: string, args: string[], env = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env, maxBuffer: 32 << 20, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function missingTools(): Promise<string | undefined> {
  if (process.env.KEVENTS_CONTAINER_TESTS === 'skip') return 'KEVENTS_CONTAINER_TESTS=skip';
  const renderer = await rendererMissing();
  if (renderer) return renderer;
  const { havePodman, imageExists } = await import('../images/lib/podman.js');
  const { baseRefs } = await import('../images/lib/base-images.js');
  if (!(await havePodman())) return 'podman is not installed or does not run (.ci/install-podman.sh installs it)';
  if (process.getuid?.() !== 0) return 'podman kube play with fixed pod IPs needs root';
  const haveBases = (await imageExists(baseRefs.node)) && (await imageExists(baseRefs.redis));
  if (!haveBases && (await sh('debootstrap', ['--version'])).code !== 0)
    return 'debootstrap is not installed (.ci/install-podman.sh installs it)';
  if ((await sh('kubectl', ['version', '--client'])).code !== 0) return 'kubectl is not on PATH';
  return undefined;
}

const describeKubePlay = describeIfTools(await missingTools(), 'chart on podman kube play');

describeKubePlay('chart on podman kube play', () => {
  const id = randomBytes(3).toString('hex');
  const release = `kp${id}`;
  const namespace = 'kevents';
  const network = `kevents-chart-${id}`;
  const dir = mkdtempSync(join(tmpdir(), 'kevents-kube-play-'));
  const played: string[] = [];
  const secrets: string[] = [];
  let podmanEnv: NodeJS.ProcessEnv = process.env;
  let ips = { redis: '', server: '', controller: '' };
  let rendered: Rendered;
  let kubectlArgs: string[] = [];
  const timings: Record<string, number> = {};

  const podman = async (args: string[], allowFail = false) => {
    const r = await sh('podman', args, podmanEnv);
    if (r.code !== 0 && !allowFail) throw new Error(`podman ${args.join(' ')}: ${r.stderr || r.stdout}`);
    return r;
  };
  const kubectl = (args: string[]) => sh('kubectl', [...kubectlArgs, ...args]);

  beforeAll(async () => {
    const t0 = Date.now();
    const { ensureImages, podmanEnv: envOf } = await import('../images/build.js');
    const images = await ensureImages({ build: false, log: () => undefined });
    podmanEnv = envOf();
    timings['images'] = Date.now() - t0;
    const [registry] = images.apiserver.split('/');
    const tag = images.apiserver.split(':').pop();

    for (let attempt = 0; ; attempt++) {
      const subnet = `10.${200 + Math.floor(Math.random() * 50)}.${Math.floor(Math.random() * 250)}`;
      const r = await podman(['network', 'create', '--subnet', `${subnet}.0/24`, network], true);
      if (r.code === 0) {
        ips = { redis: `${subnet}.10`, server: `${subnet}.11`, controller: `${subnet}.12` };
        break;
      }
      if (attempt > 5) throw new Error(`podman network create: ${r.stderr}`);
    }

    const server = `${release}-kevents-server`;
    rendered = await renderChart({
      releaseName: release,
      namespace,
      values: {
        global: { image: { registry } },
        server: {
          replicas: 1,
          image: { tag },
          service: { port: 6443 },
          shutdownDelayDuration: '0s',
          tls: { extraIpAddresses: [ips.server] },
          hostAliases: [{ ip: ips.redis, hostnames: [`${release}-kevents-redis`] }],
        },
        controller: {
          replicas: 1,
          image: { tag },
          leaderElection: { leaseDuration: '4s', renewDeadline: '3s', retryPeriod: '1s' },
          hostAliases: [{ ip: ips.server, hostnames: [`${server}.${namespace}.svc.cluster.local`] }],
        },
      },
    });

    const objects = (kind: string) => [...byKind(rendered, kind).values()];
    const configMaps = objects('ConfigMap');
    const secretObjects = objects('Secret');
    secrets.push(...secretObjects.map((s) => String(s.metadata!['name'])));
    const deployments = byKind(rendered, 'Deployment');
    const playOne = async (name: string, ip: string) => {
      const file = join(dir, `${name}.yaml`);
      const deployment = structuredClone(deployments.get(name)!);
      // podman 4.3 publishes every containerPort on the host (0.0.0.0, same port) when hostPort is unset;
      // bind them to free loopback ports instead. Nothing else of the rendered objects is changed.
      for (const c of (deployment['spec'] as any).template.spec.containers) {
        for (const p of c.ports ?? []) Object.assign(p, { hostIP: '127.0.0.1', hostPort: await freePort() });
        // podman 4.3 does not expand $(VAR) in args as the kubelet does; expand them here, from the
        // container's env and the rendered Secrets its secretKeyRefs name.
        const env = new Map<string, string>();
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          const data = ref ? (byKind(rendered, 'Secret').get(ref.name)?.['data'] as Record<string, string>) : undefined;
          if (e.value !== undefined) env.set(e.name, e.value);
          else if (data?.[ref.key]) env.set(e.name, Buffer.from(data[ref.key]!, 'base64').toString());
        }
        c.args = (c.args ?? []).map((a: string) => a.replace(/\$\((\w+)\)/g, (m, n) => env.get(n) ?? m));
      }
      const docs = [deployment, ...configMaps];
      writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));
      played.push(file);
      await podman(['kube', 'play', '--network', network, '--ip', ip, file]);
    };
    const t1 = Date.now();
    // podman 4.3 reads a secretKeyRef from a podman secret holding a JSON map of base64 values, and a
    // secret volume from one holding the Secret object (and panics on a key it cannot find), so each
    // rendered Secret is stored in the form its consumers read.
    const keyRefs = new Set(
      [...deployments.values()].flatMap((d) =>
        (d['spec'] as any).template.spec.containers.flatMap((c: any) =>
          (c.env ?? []).map((e: any) => e.valueFrom?.secretKeyRef?.name).filter(Boolean),
        ),
      ),
    );
    for (const secret of secretObjects) {
      const name = String(secret.metadata!['name']);
      const file = join(dir, `secret-${name}.json`);
      const data = secret['data'] as Record<string, string>;
      const decoded = Object.fromEntries(
        Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
      );
      // (for volumes podman 4.3 decodes the Secret with a YAML library that takes `data` strings as raw
      // bytes, without base64-decoding them: give it the decoded values)
      writeFileSync(file, JSON.stringify(keyRefs.has(name) ? data : { ...secret, data: decoded }));
      await podman(['secret', 'create', name, file]);
    }
    await playOne(`${release}-kevents-redis`, ips.redis);
    await playOne(server, ips.server);
    await playOne(`${release}-kevents-controller`, ips.controller);
    timings['play'] = Date.now() - t1;

    const pem = (secret: string, key: string) =>
      Buffer.from((byKind(rendered, 'Secret').get(secret)!['data'] as Record<string, string>)[key]!, 'base64');
    writeFileSync(join(dir, 'ca.crt'), pem(`${server}-tls`, 'ca.crt'));
    // kubectl as the controller's user (its chart-signed client certificate), verifying the serving certificate.
    writeFileSync(join(dir, 'client.crt'), pem(`${release}-kevents-controller-client`, 'tls.crt'));
    writeFileSync(join(dir, 'client.key'), pem(`${release}-kevents-controller-client`, 'tls.key'));
    kubectlArgs = [
      '--kubeconfig=/dev/null',
      `--server=https://${ips.server}:6443`,
      `--certificate-authority=${join(dir, 'ca.crt')}`,
      `--client-certificate=${join(dir, 'client.crt')}`,
      `--client-key=${join(dir, 'client.key')}`,
      '--request-timeout=10s',
    ];
  }, 600_000);

  afterAll(async () => {
    if (process.env.KEVENTS_CHART_KEEP) return; // debugging: leave the pods, secrets and network up
    for (const file of played.reverse()) await podman(['kube', 'down', file], true);
    for (const s of secrets) await podman(['secret', 'rm', s], true);
    // podman 4.3 keeps a named volume per ConfigMap and Secret volume, named after its source.
    const volumes = await podman(['volume', 'ls', '-q', '--filter', `name=${release}-`], true);
    for (const v of volumes.stdout.split('\n').filter((n) => n.startsWith(`${release}-`)))
      await podman(['volume', 'rm', '-f', v], true);
    const left = await podman(['pod', 'ps', '-q', '--filter', `name=${release}-`], true);
    for (const pod of left.stdout.split('\n').filter(Boolean)) await podman(['pod', 'rm', '-f', pod], true);
    await podman(['network', 'rm', '-f', network], true);
    rmSync(dir, { recursive: true, force: true });
    console.log(`kube-play timings (ms): ${JSON.stringify(timings)}`);
  }, 120_000);

  const eventually = async <T>(
    what: string,
    probe: () => Promise<T | undefined>,
    ms = Number(process.env.KEVENTS_CHART_WAIT_MS || 90_000),
  ): Promise<T> => {
    const deadline = Date.now() + ms;
    let last: unknown;
    for (;;) {
      try {
        const v = await probe();
        if (v !== undefined) return v;
      } catch (err) {
        last = err;
      }
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms (${String(last ?? '')})`);
      await new Promise((r) => setTimeout(r, 500));
    }
  };

  it('the apiserver comes up on the bundled Redis and answers kubectl over the chart-generated TLS', async () => {
    const t0 = Date.now();
    const ready = await eventually('/readyz', async () => {
      const r = await kubectl(['get', '--raw', '/readyz?verbose']);
      return r.code === 0 ? r.stdout : undefined;
    });
    expect(ready).toContain('[+]storage ok');
    timings['ready'] = Date.now() - t0;
    const event = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: `chart-${id}`, namespace: 'default' },
      eventTime: new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'),
      reportingController: 'example.com/chart-test',
      reportingInstance: 'chart-test',
      action: 'Test',
      reason: 'ChartTest',
      type: 'Normal',
      regarding: { kind: 'Pod', namespace: 'default', name: 'p' },
      note: 'created through the chart',
    };
    const file = join(dir, 'event.json');
    writeFileSync(file, JSON.stringify(event));
    const created = await kubectl(['create', '-f', file]);
    expect(created.stderr).toBe('');
    expect(created.stdout).toContain(`event.events.k8s.io/chart-${id} created`);
    const got = await kubectl([
      'get',
      'events.events.k8s.io',
      '-n',
      'default',
      `chart-${id}`,
      '-o',
      'jsonpath={.note}',
    ]);
    expect(got.stdout).toBe('created through the chart');
    const listed = await kubectl(['get', 'events.events.k8s.io', '-A', '-o', 'name']);
    expect(listed.stdout.split('\n')).toContain(`event.events.k8s.io/chart-${id}`);
  }, 150_000);

  it('the controller reaches the apiserver with its client certificate and takes the lease', async () => {
    const holder = await eventually('the controller lease', async () => {
      const r = await kubectl([
        'get',
        'leases.coordination.k8s.io',
        '-n',
        namespace,
        `${release}-kevents-controller`,
        '-o',
        'jsonpath={.spec.holderIdentity}',
      ]);
      return r.code === 0 && r.stdout ? r.stdout : undefined;
    });
    expect(holder).toContain(`${release}-kevents-controller`);
  }, 120_000);

  it('the containers run as the non-root users of the chart on read-only root filesystems', async () => {
    const ps = await podman(['ps', '--filter', `name=${release}-`, '--format', '{{.Names}}']);
    const names = ps.stdout.split('\n').filter((n) => n && !n.endsWith('-infra'));
    expect(names.length).toBe(3);
    for (const name of names) {
      const inspect = JSON.parse((await podman(['inspect', name])).stdout)[0];
      expect({ name, readOnly: inspect.HostConfig.ReadonlyRootfs }).toEqual({ name, readOnly: true });
      const uid = (await podman(['exec', name, 'id', '-u'], true)).stdout.trim();
      expect({ name, uid }).toEqual({ name, uid: name.includes('redis') ? '999' : '1000' });
    }
  }, 60_000);
});
