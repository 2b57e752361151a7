import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { describeIfTools } from './gate.js';
import { KubePlay, eventually, kubePlayMissing, sh } from './kube-play.js';

/**
 * The rendered chart run for real: its Deployments, ConfigMaps and Secrets played with
 * `podman kube play` (tools/chart/kube-play.ts), and the apiserver answering kubectl.
 */

const describeKubePlay = describeIfTools(await kubePlayMissing(), 'chart on podman kube play');

describeKubePlay('chart on podman kube play', () => {
  let kp: KubePlay;
  let id = '';
  let release = '';
  let namespace = '';
  let kubectlArgs: string[] = [];
  let timings: Record<string, number> = {};
  const podman = (args: string[], allowFail = false) => kp.podman(args, allowFail);
  const kubectl = (args: string[]) => sh('kubectl', [...kubectlArgs, ...args]);

  beforeAll(async () => {
    kp = await KubePlay.start('kp');
    ({ id, release, namespace, timings } = kp);
    const base = kp.baseValues();
    await kp.render(base);
    await kp.createSecrets();
    await kp.play(`${release}-kevents-redis`, kp.ips.redis);
    await kp.play(kp.serverName, kp.ips.server);
    await kp.play(kp.controllerName, kp.ips.controller);

    // kubectl as the controller's user (its chart-signed client certificate), verifying the serving certificate.
    kubectlArgs = [
      '--kubeconfig=/dev/null',
      `--server=https://${kp.ips.server}:6443`,
      `--certificate-authority=${kp.write('ca.crt', kp.secretData(`${kp.serverName}-tls`, 'ca.crt'))}`,
      `--client-certificate=${kp.write('client.crt', kp.secretData(`${kp.controllerName}-client`, 'tls.crt'))}`,
      `--client-key=${kp.write('client.key', kp.secretData(`${kp.controllerName}-client`, 'tls.key'))}`,
      '--request-timeout=10s',
    ];
  }, 600_000);

  afterAll(async () => {
    await kp?.down();
    console.log(`kube-play timings (ms): ${JSON.stringify(timings)}`);
  }, 120_000);

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
    const file = kp.write('event.json', JSON.stringify(event));
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
