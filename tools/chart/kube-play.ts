/* eslint-disable @typescript-eslint/no-explicit-any -- rendered YAML is untyped */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { freePort, waitForValue } from '@kevents/api/testing';
import { byKind, renderChart, rendererMissing, type Rendered } from './renderer.js';

/**
 * The rendered chart run for real with `podman kube play` (the images of tools/images/build.js),
 * shared by the kube-play tests. podman has no Services or cluster DNS: each pod gets a fixed IP
 * on a network of its own and the chart's `hostAliases` map the Service names the pods use to
 * those IPs (what the Service and cluster DNS do in Kubernetes); the Service port is set to the
 * container port, as kube-proxy would translate it. The host is the network's gateway, reachable
 * from the pods (stand-ins for the cluster's own API listen there).
 */

/** Runs a command; resolves with its exit code and output (never rejects). */
export function sh(
  cmd: string,
  args: string[],
  env = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { env, maxBuffer: 32 << 20, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** What this machine lacks for the kube-play tests, or undefined when it has everything. */
export async function kubePlayMissing(): Promise<string | undefined> {
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

/** Polls `probe` every 500 ms until it returns a value (KEVENTS_CHART_WAIT_MS, default 90 s). */
export function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms = Number(process.env.KEVENTS_CHART_WAIT_MS || 90_000),
): Promise<T> {
  return waitForValue(probe, ms, (err) => `${what}: not within ${ms} ms (${String(err ?? '')})`, {
    intervalMs: 500,
    retryErrors: true,
  });
}

/** The fixed addresses of one play: the pods, and the host as the network's gateway. */
export interface PlayAddresses {
  readonly gateway: string;
  readonly redis: string;
  readonly server: string;
  readonly controller: string;
}

/**
 * One release of the chart on podman: a network, the images, the rendered objects, and the pods
 * played from them. {@link KubePlay.start} builds nothing it finds up to date; {@link KubePlay.down}
 * removes every pod, secret, volume and the network (unless KEVENTS_CHART_KEEP is set).
 */
export class KubePlay {
  readonly id = randomBytes(3).toString('hex');
  readonly release: string;
  readonly namespace = 'kevents';
  readonly network: string;
  /** A scratch directory for the played files and the test's own (removed by {@link KubePlay.down}). */
  readonly dir = mkdtempSync(join(tmpdir(), 'kevents-kube-play-'));
  /** Milliseconds per step, printed by {@link KubePlay.down}. */
  readonly timings: Record<string, number> = {};
  ips: PlayAddresses = { gateway: '', redis: '', server: '', controller: '' };
  rendered: Rendered = { manifests: {}, documents: [], notes: '' };
  /** The registry and tag of the built images, for `global.image.registry` and each `image.tag`. */
  image = { registry: '', tag: '' };
  #env: NodeJS.ProcessEnv = process.env;
  readonly #played: string[] = [];
  readonly #secrets: string[] = [];

  private constructor(prefix: string) {
    this.release = `${prefix}${this.id}`;
    this.network = `kevents-chart-${this.id}`;
  }

  /** The images (built when missing) and a network of its own with a free /24. */
  static async start(prefix: string): Promise<KubePlay> {
    const p = new KubePlay(prefix);
    const t0 = Date.now();
    const { ensureImages, podmanEnv } = await import('../images/build.js');
    const images = await ensureImages({ build: false, log: () => undefined });
    p.#env = podmanEnv();
    p.timings['images'] = Date.now() - t0;
    p.image = { registry: images.apiserver.split('/')[0]!, tag: images.apiserver.split(':').pop()! };
    for (let attempt = 0; ; attempt++) {
      const subnet = `10.${200 + Math.floor(Math.random() * 50)}.${Math.floor(Math.random() * 250)}`;
      const r = await p.podman(['network', 'create', '--subnet', `${subnet}.0/24`, p.network], true);
      if (r.code === 0) {
        p.ips = { gateway: `${subnet}.1`, redis: `${subnet}.10`, server: `${subnet}.11`, controller: `${subnet}.12` };
        break;
      }
      if (attempt > 5) throw new Error(`podman network create: ${r.stderr}`);
    }
    return p;
  }

  get serverName(): string {
    return `${this.release}-kevents-server`;
  }

  get controllerName(): string {
    return `${this.release}-kevents-controller`;
  }

  /** Runs podman with the generated containers.conf; throws on failure unless `allowFail`. */
  async podman(args: string[], allowFail = false): Promise<{ code: number; stdout: string; stderr: string }> {
    const r = await sh('podman', args, this.#env);
    if (r.code !== 0 && !allowFail) throw new Error(`podman ${args.join(' ')}: ${r.stderr || r.stdout}`);
    return r;
  }

  /**
   * The values every play needs: the built images, one replica each, the Service port at the
   * container port, the pods' addresses in the serving certificate and `hostAliases`, and short
   * leader-election timings. Spread them and add the test's own.
   */
  baseValues(): { global: object; server: Record<string, any>; controller: Record<string, any> } {
    const { registry, tag } = this.image;
    return {
      global: { image: { registry } },
      server: {
        replicas: 1,
        image: { tag },
        service: { port: 6443 },
        shutdownDelayDuration: '0s',
        tls: { extraIpAddresses: [this.ips.server] },
        hostAliases: [{ ip: this.ips.redis, hostnames: [`${this.release}-kevents-redis`] }],
      },
      controller: {
        replicas: 1,
        image: { tag },
        leaderElection: { leaseDuration: '4s', renewDeadline: '3s', retryPeriod: '1s' },
        hostAliases: [{ ip: this.ips.server, hostnames: [`${this.serverName}.${this.namespace}.svc.cluster.local`] }],
      },
    };
  }

  /** Renders the chart as this release with `values`. */
  async render(values: Record<string, unknown>): Promise<Rendered> {
    this.rendered = await renderChart({ releaseName: this.release, namespace: this.namespace, values });
    return this.rendered;
  }

  /**
   * Stores the rendered Secrets, and `extra` Secrets the test provides in the cluster's place
   * (such as a ServiceAccount token), as podman secrets. podman 4.3 reads a secretKeyRef from a
   * podman secret holding a JSON map of base64 values, and a secret volume from one holding the
   * Secret object (and panics on a key it cannot find), so each is stored in the form its
   * consumers read.
   */
  async createSecrets(extra: Record<string, any>[] = []): Promise<void> {
    const keyRefs = new Set(
      [...byKind(this.rendered, 'Deployment').values()].flatMap((d) =>
        (d['spec'] as any).template.spec.containers.flatMap((c: any) =>
          (c.env ?? []).map((e: any) => e.valueFrom?.secretKeyRef?.name).filter(Boolean),
        ),
      ),
    );
    for (const secret of [...byKind(this.rendered, 'Secret').values(), ...extra]) {
      const name = String(secret.metadata!['name']);
      const file = join(this.dir, `secret-${name}.json`);
      const data = secret['data'] as Record<string, string>;
      const decoded = Object.fromEntries(
        Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
      );
      // (for volumes podman 4.3 decodes the Secret with a YAML library that takes `data` strings as raw
      // bytes, without base64-decoding them: give it the decoded values)
      writeFileSync(file, JSON.stringify(keyRefs.has(name) ? data : { ...secret, data: decoded }));
      await this.podman(['secret', 'create', name, file]);
      this.#secrets.push(name);
    }
  }

  /** Plays the rendered Deployment `name` (with the rendered ConfigMaps) as a pod at `ip`. */
  async play(name: string, ip: string): Promise<void> {
    const t0 = Date.now();
    const file = join(this.dir, `${name}.yaml`);
    const deployment = structuredClone(byKind(this.rendered, 'Deployment').get(name));
    if (!deployment) throw new Error(`the chart rendered no Deployment ${name}`);
    // podman 4.3 publishes every containerPort on the host (0.0.0.0, same port) when hostPort is unset;
    // bind them to free loopback ports instead. Nothing else of the rendered objects is changed.
    for (const c of (deployment['spec'] as any).template.spec.containers) {
      for (const p of c.ports ?? []) Object.assign(p, { hostIP: '127.0.0.1', hostPort: await freePort() });
      // podman 4.3 does not expand $(VAR) in args as the kubelet does; expand them here, from the
      // container's env and the rendered Secrets its secretKeyRefs name.
      const env = new Map<string, string>();
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        const data = ref
          ? (byKind(this.rendered, 'Secret').get(ref.name)?.['data'] as Record<string, string>)
          : undefined;
        if (e.value !== undefined) env.set(e.name, e.value);
        else if (data?.[ref.key]) env.set(e.name, Buffer.from(data[ref.key]!, 'base64').toString());
      }
      c.args = (c.args ?? []).map((a: string) => a.replace(/\$\((\w+)\)/g, (m, n) => env.get(n) ?? m));
    }
    const docs = [deployment, ...byKind(this.rendered, 'ConfigMap').values()];
    writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));
    this.#played.push(file);
    await this.podman(['kube', 'play', '--network', this.network, '--ip', ip, file]);
    this.timings[`play ${name.slice(this.release.length + 1)}`] = Date.now() - t0;
  }

  /** A key of a rendered Secret, decoded. */
  secretData(secret: string, key: string): Buffer {
    const data = byKind(this.rendered, 'Secret').get(secret)?.['data'] as Record<string, string> | undefined;
    if (data?.[key] === undefined) throw new Error(`the chart rendered no Secret ${secret} with ${key}`);
    return Buffer.from(data[key], 'base64');
  }

  /** Writes `text` to a file in {@link KubePlay.dir}; returns its path. */
  write(name: string, text: string | Buffer): string {
    const p = join(this.dir, name);
    writeFileSync(p, text);
    return p;
  }

  /** The last lines a played container logged (for failure messages). */
  async logs(container: string, lines = 40): Promise<string> {
    const ps = await this.podman(['ps', '-a', '--filter', `name=${container}`, '--format', '{{.Names}}'], true);
    const name = ps.stdout.split('\n').find((n) => n && !n.endsWith('-infra'));
    if (!name) return `(no container ${container})`;
    const r = await this.podman(['logs', '--tail', String(lines), name], true);
    return r.stdout + r.stderr;
  }

  /** Removes the pods, secrets, volumes, network and files of this play. */
  async down(): Promise<void> {
    if (process.env.KEVENTS_CHART_KEEP) return; // debugging: leave the pods, secrets and network up
    for (const file of this.#played.reverse()) await this.podman(['kube', 'down', file], true);
    for (const s of this.#secrets) await this.podman(['secret', 'rm', s], true);
    // podman 4.3 keeps a named volume per ConfigMap and Secret volume, named after its source.
    const volumes = await this.podman(['volume', 'ls', '-q', '--filter', `name=${this.release}-`], true);
    for (const v of volumes.stdout.split('\n').filter((n) => n.startsWith(`${this.release}-`)))
      await this.podman(['volume', 'rm', '-f', v], true);
    const left = await this.podman(['pod', 'ps', '-q', '--filter', `name=${this.release}-`], true);
    for (const pod of left.stdout.split('\n').filter(Boolean)) await this.podman(['pod', 'rm', '-f', pod], true);
    await this.podman(['network', 'rm', '-f', this.network], true);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
