// `kubectl why-pending capture` on a real control plane. Secret values are planted wherever a
// careless capture would copy them: container environment values and command lines, probes,
// annotations (the pod template's, the Deployment's, and kubectl apply's last-applied-
// configuration, which repeats the whole object), a ConfigMap and a Secret. Captures of a
// diagnosis, of a triage, of every namespace with names replaced, and one saved by --save are
// written as the read-only user; not one byte of a planted value may be in any of them, and the
// diagnosis from each capture must be the live one, whole. Every request is a read (audit log).
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestCluster } from './harness/index.js';
import { kubectl } from './harness/kubectl.js';
import { VIEWER, secs, startE2eCluster } from './harness/suite.js';
import { waitFor } from './harness/wait.js';
import { describeRun, whyPending } from './harness/why-pending.js';

const NS = 'vault';
// Each planted value is distinct, so a failure says which place leaked.
const planted = {
  env: 'PLANTED-ENV-4f9c1e',
  command: 'PLANTED-CMD-8b27d0',
  probe: 'PLANTED-PROBE-13aa7e',
  podAnnotation: 'PLANTED-PODANN-6d0f52',
  deploymentAnnotation: 'PLANTED-DEPANN-90c3b1',
  configMap: 'PLANTED-CONFIGMAP-2e8841',
  secret: 'PLANTED-SECRET-77b5fa',
  image: 'planted-image-c41d09',
};

const manifest = `
apiVersion: v1
kind: Namespace
metadata: {name: ${NS}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: app-config, namespace: ${NS}}
data: {password: ${planted.configMap}}
---
apiVersion: v1
kind: Secret
metadata: {name: app-secret, namespace: ${NS}}
stringData: {token: ${planted.secret}}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: leaky
  namespace: ${NS}
  annotations: {example.com/note: ${planted.deploymentAnnotation}}
spec:
  replicas: 2
  selector: {matchLabels: {app: leaky}}
  template:
    metadata:
      labels: {app: leaky}
      annotations: {example.com/token: ${planted.podAnnotation}}
    spec:
      nodeSelector: {disk: ssd}
      containers:
      - name: app
        image: registry.example.com/${planted.image}:1
        command: [sh, -c, "run --password=${planted.command}"]
        env:
        - {name: DB_PASSWORD, value: ${planted.env}}
        - name: FROM_SECRET
          valueFrom: {secretKeyRef: {name: app-secret, key: token}}
        envFrom:
        - configMapRef: {name: app-config}
        readinessProbe:
          httpGet: {path: "/health?key=${planted.probe}", port: 8080}
        resources: {requests: {cpu: 100m}}
`;

/** Every byte a capture holds: a folder's files, or a .tar.gz uncompressed. */
function captureBytes(path: string): string {
  if (statSync(path).isDirectory()) return readdirSync(path).map((f) => readFileSync(join(path, f), 'utf8')).join('\n');
  return gunzipSync(readFileSync(path)).toString('latin1');
}

describe('capture: what a diagnosis read, redacted, read back the same', () => {
  let c: TestCluster;
  let out: string;
  const lines: string[] = [];

  beforeAll(async () => {
    const t0 = Date.now();
    c = await startE2eCluster();
    out = mkdtempSync(join(tmpdir(), 'wp-capture-e2e-'));
    await c.createNode('worker-1', { labels: { disk: 'hdd' } });
    await c.createNode('worker-2', { labels: { disk: 'sdd' } });
    const file = join(out, 'leaky.yaml');
    writeFileSync(file, manifest);
    // kubectl apply writes last-applied-configuration: the whole manifest, env values and all.
    await kubectl(c.kubeconfig, ['apply', '-f', file]);
    await waitFor('the scheduler to try both replicas', async () => {
      const pods = await c.api.get<{ items: { status?: { conditions?: { type: string; reason?: string }[] } }[] }>(`/api/v1/namespaces/${NS}/pods`);
      const tried = pods.items.filter((p) => p.status?.conditions?.some((k) => k.type === 'PodScheduled' && k.reason === 'Unschedulable'));
      return pods.items.length === 2 && tried.length === 2 ? true : undefined;
    }, { timeoutMs: 60_000 });
    lines.push(`[e2e] capture: control plane and pods ready in ${secs(Date.now() - t0)}`);
  });

  afterAll(async () => {
    await c?.stop();
    if (out) rmSync(out, { recursive: true, force: true });
    console.log(lines.join('\n'));
  });

  it('the cluster holds every planted value where a careless capture would copy it', async () => {
    const all = JSON.stringify(await c.api.get(`/apis/apps/v1/namespaces/${NS}/deployments/leaky`)) + JSON.stringify(await c.api.get(`/api/v1/namespaces/${NS}/pods`));
    for (const key of ['env', 'command', 'probe', 'podAnnotation', 'deploymentAnnotation', 'image'] as const) expect(all, key).toContain(planted[key]);
    expect(all, 'kubectl apply wrote last-applied-configuration').toContain('last-applied-configuration');
  });

  const cases: { name: string; args: (path: string) => string[]; read: (path: string) => string[]; path: string }[] = [
    { name: 'a Deployment, as .tar.gz', path: 'deploy.tar.gz', args: (p) => ['capture', 'deploy/leaky', '-n', NS, '-f', p], read: (p) => ['deploy/leaky', '-n', NS, '--from-dump', p] },
    { name: 'a triage of the namespace, as a folder', path: 'triage', args: (p) => ['capture', '-n', NS, '-f', p], read: (p) => ['-n', NS, '--from-dump', p] },
    { name: 'every namespace, names replaced', path: 'all.tar.gz', args: (p) => ['capture', '-A', '-f', p, '--redact-names'], read: (p) => ['-A', '--from-dump', p] },
  ];

  it.each(cases)('$name: no planted byte, and the same answer read back', async ({ path, args, read }) => {
    const target = join(out, path);
    const captured = await whyPending(c, VIEWER, args(target));
    expect(captured.code, describeRun(captured)).toBe(0);
    expect(captured.stdout).toMatch(/^wrote capture /);
    lines.push(`[e2e] capture ${args(target).slice(1).join(' ')}:\n${captured.stdout.trimEnd()}`);
    const bytes = captureBytes(target);
    for (const [where, value] of Object.entries(planted)) expect(bytes.includes(value), `${where} leaked into ${path}`).toBe(false);
    expect(bytes).toContain('"kind": "Capture"');
    // The live answer, then the capture's: the same document (the triage's source aside).
    const live = await whyPending(c, VIEWER, [...read(target).filter((a, i, all) => a !== '--from-dump' && all[i - 1] !== '--from-dump'), '-o', 'json']);
    const fromCapture = await whyPending(c, undefined, [...read(target), '-o', 'json']);
    expect(fromCapture.code, describeRun(fromCapture)).toBe(0);
    const { source: _a, ...liveDoc } = live.json as unknown as Record<string, unknown>;
    const { source: sourceRead, ...captureDoc } = fromCapture.json as unknown as Record<string, unknown>;
    if (args(target).includes('--redact-names')) {
      // Names are pseudonyms: the same groups and counts, other names.
      expect((captureDoc['counts'] as unknown) ?? null).toEqual((liveDoc['counts'] as unknown) ?? null);
      return;
    }
    expect(captureDoc).toEqual(liveDoc);
    if (sourceRead) expect(sourceRead).toEqual({ kind: 'capture', description: target });
  });

  it('--save writes the capture of the very diagnosis printed', async () => {
    const target = join(out, 'saved');
    const live = await whyPending(c, VIEWER, ['deploy/leaky', '-n', NS, '-o', 'json', '--save', target]);
    expect(live.code, describeRun(live)).toBe(0);
    expect(live.stderr).toContain(`wrote capture ${target}`);
    const fromCapture = await whyPending(c, undefined, ['deploy/leaky', '-n', NS, '-o', 'json', '--from-dump', target]);
    expect(fromCapture.json).toEqual(live.json);
    const human = await whyPending(c, VIEWER, ['deploy/leaky', '-n', NS, '--save', join(out, 'saved-human.tar.gz')]);
    const humanBack = await whyPending(c, undefined, ['deploy/leaky', '-n', NS, '--from-dump', join(out, 'saved-human.tar.gz')]);
    expect(humanBack.stdout).toEqual(human.stdout);
    for (const [where, value] of Object.entries(planted)) expect(captureBytes(target).includes(value), `${where} leaked into --save`).toBe(false);
  });

  it('refuses to overwrite, and says so in one line', async () => {
    const target = join(out, 'deploy.tar.gz');
    const again = await whyPending(c, VIEWER, ['capture', 'deploy/leaky', '-n', NS, '-f', target]);
    expect(again.code).toBe(2);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toContain('already exists');
  });
});
