// Triage on a real control plane: pods pending for several causes in one namespace (a
// Deployment asking for more cpu than any node has, one selecting a label no node carries, a
// gated pod), read live without a pod name (-n, -A, -l) and from the README's dump of the same
// cluster. The groups, their owners and their pods must be the same both ways, and the capture
// --save writes of a live triage gives the very same triage; every request is a read (audit log).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TriageV1 } from '../../src/report/triage/contract.js';
import type { TestCluster } from './harness/index.js';
import { VIEWER, dumpCluster, secs, startE2eCluster } from './harness/suite.js';
import { describeRun, startWhyPending, whyPending } from './harness/why-pending.js';
import { waitFor } from './harness/wait.js';

const NS = 'triage';

function deployment(name: string, replicas: number, spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec } },
  };
}

/** Each group as cause, owners and pod count: what a live read and a dump must agree on. */
function shape(doc: TriageV1): unknown[] {
  return doc.groups.map((g) => ({
    cause: g.cause,
    owners: g.owners.map((o) => `${o.owner ? `${o.owner.kind}/${o.owner.name}` : 'none'} x${o.pods}`),
    pods: g.pods.length,
    stages: [...new Set(g.pods.map((p) => p.stage))],
  }));
}

describe('triage: every pending pod, grouped by cause', () => {
  let c: TestCluster;
  const lines: string[] = [];

  beforeAll(async () => {
    const t0 = Date.now();
    c = await startE2eCluster();
    await c.createNode('gpu-1', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] });
    await c.createNode('worker-1');
    await c.createNode('worker-2');
    await c.apply([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'migrate', namespace: NS, labels: { app: 'migrate' } }, spec: { schedulingGates: [{ name: 'example.com/approval' }], containers: [{ name: 'm', image: 'registry.k8s.io/pause:3.10' }] } },
      deployment('web', 3, { containers: [{ name: 'web', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '6' } } }] }),
      deployment('api', 2, { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'api', image: 'registry.k8s.io/pause:3.10' }] }),
    ]);
    // Until the scheduler has tried every replica (and the gate holds the other pod).
    await waitFor('the scheduler to try every pod', async () => {
      const pods = await c.api.get<{ items: { status?: { conditions?: { type: string; reason?: string }[] } }[] }>(`/api/v1/namespaces/${NS}/pods`);
      const tried = pods.items.filter((p) => p.status?.conditions?.some((k) => k.type === 'PodScheduled' && (k.reason === 'Unschedulable' || k.reason === 'SchedulingGated')));
      return pods.items.length === 6 && tried.length === 6 ? true : undefined;
    }, { timeoutMs: 60_000 });
    lines.push(`[e2e] triage: control plane and pods ready in ${secs(Date.now() - t0)}`);
  });

  afterAll(async () => {
    await c?.stop();
    console.log(lines.join('\n'));
  });

  it('groups a namespace live, largest first, and the dump of the cluster the same way', async () => {
    const saved = join(c.dir, 'triage.capture.tar.gz');
    const live = await whyPending(c, VIEWER, ['-n', NS, '-o', 'json', '--save', saved]);
    expect(live.code, describeRun(live)).toBe(0);
    const doc = live.json as unknown as TriageV1;
    // The capture --save wrote of this read: the same triage, whole (but where it was read from).
    const fromCapture = await whyPending(c, undefined, ['-n', NS, '-o', 'json', '--from-dump', saved]);
    expect({ ...(fromCapture.json as unknown as TriageV1), source: doc.source }).toEqual(doc);
    expect((fromCapture.json as unknown as TriageV1).source).toEqual({ kind: 'capture', description: saved });
    expect(doc.counts).toEqual({ pending: 6, groups: 3 });
    expect(shape(doc)).toEqual([
      { cause: { stage: 'Unschedulable', plugin: 'NodeResourcesFit', reason: 'insufficientResource', key: 'cpu|over' }, owners: ['Deployment/web x3'], pods: 3, stages: ['Unschedulable'] },
      { cause: expect.objectContaining({ stage: 'Unschedulable', plugin: 'NodeAffinity', reason: 'nodeSelectorMismatch' }), owners: ['Deployment/api x2'], pods: 2, stages: ['Unschedulable'] },
      { cause: { stage: 'SchedulingGated', reason: 'gates', key: 'example.com/approval' }, owners: ['none x1'], pods: 1, stages: ['SchedulingGated'] },
    ]);
    // Labelling nodes with a fact is a policy change: in the JSON, with its caution, never the group's fix line.
    expect(doc.groups[1]?.fixes[0]).toMatchObject({ class: 'policy', change: 'Label 2 nodes (worker-1 and worker-2) disk=ssd. Only if worker-1 and worker-2 really have disk=ssd: a label states a fact that other workloads select on.' });
    // Nodes once, bound pods once: a handful of LISTs, not a read per pending pod.
    const lists = live.audited.filter((e) => e.verb === 'list' && e.objectRef?.resource === 'nodes');
    expect(lists, 'nodes listed once').toHaveLength(1);
    // The one GET is the cluster's version (the release whose rules are replayed).
    expect(live.audited.filter((e) => e.verb === 'get' && e.requestURI !== '/version'), 'no per-pod reads').toEqual([]);
    lines.push(`[e2e] triage: live -n ${NS} in ${secs(live.ms)}, ${live.audited.length} requests`);

    const dump = await dumpCluster(c, 'triage');
    const fromDump = await whyPending(c, undefined, ['-n', NS, '--from-dump', dump, '-o', 'json']);
    expect(fromDump.code, describeRun(fromDump)).toBe(0);
    expect(shape(fromDump.json as unknown as TriageV1)).toEqual(shape(doc));
  });

  it('reads every namespace with -A (the bystander waits for a scheduler that does not exist) and narrows with -l', async () => {
    const saved = join(c.dir, 'triage-all.capture');
    const all = await whyPending(c, VIEWER, ['-A', '-o', 'json', '--save', saved]);
    expect(all.code, describeRun(all)).toBe(0);
    const doc = all.json as unknown as TriageV1;
    const fromCapture = await whyPending(c, undefined, ['-A', '-o', 'json', '--from-dump', saved]);
    expect({ ...(fromCapture.json as unknown as TriageV1), source: doc.source }).toEqual(doc);
    expect(doc.scope).toEqual({ namespace: null });
    expect(doc.counts.pending).toBe(7);
    const bystander = doc.groups.find((g) => g.cause.stage === 'NoScheduler');
    expect(bystander?.pods.map((p) => `${p.pod.namespace}/${p.pod.name}`)).toEqual(['kube-system/why-pending-bystander']);

    const selected = await whyPending(c, VIEWER, ['-A', '-l', 'app in (web,migrate)']);
    expect(selected.code, describeRun(selected)).toBe(0);
    expect(selected.stdout).toContain('4 pending pods in all namespaces matching app in (migrate,web), 2 causes');
    expect(selected.stdout).toMatch(/3 pods {2}deploy\/web x3 {2}\[cannot be scheduled, NodeResourcesFit\]/);
    expect(selected.stdout).not.toContain('deploy/api');
  });
});

describe('--watch', () => {
  let c: TestCluster;

  beforeAll(async () => {
    c = await startE2eCluster();
    await c.createNode('worker-1');
    await c.apply([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'watched' } },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'solo', namespace: 'watched' }, spec: { nodeSelector: { tier: 'solo' }, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] } },
    ]);
    await c.waitForPodScheduled('watched', 'solo');
  });

  afterAll(async () => {
    await c?.stop();
  });

  it('follows a pod from unschedulable to scheduled (the test adds the label) to running (the test plays the kubelet), with WATCH requests only', async () => {
    const run = startWhyPending(c, VIEWER, ['solo', '-n', 'watched', '--watch']);
    try {
      await run.waitFor(/Pod watched\/solo cannot be scheduled\. 0 of 1 node fit: 1 node does not match its nodeSelector tier=solo/);
      await c.kubectl(['label', 'node', 'worker-1', 'tier=solo']);
      // No kubelet on the test control plane: bound is what the scheduler can do.
      await run.waitFor(/stage: Unschedulable -> ScheduledNotRunning, bound to node worker-1 \(after a change of /);
      await run.waitFor(/Scheduled to node worker-1; watching until its kubelet reports it running\./);
      await c.api.patch('/api/v1/namespaces/watched/pods/solo/status', { status: { phase: 'Running' } });
      const t0 = Date.now();
      expect(await run.ended, run.stderr()).toBe(0);
      console.log(`[e2e] --watch ended ${secs(Date.now() - t0)} after the pod was marked Running:\n${run.output()}`);
      expect(run.output()).toMatch(/Pod watched\/solo is running on node worker-1: no longer pending\. Done\.\n$/);
    } finally {
      run.kill();
    }
    const t1 = Date.now();
    const audited = await run.audited();
    console.log(`[e2e] audit read in ${secs(Date.now() - t1)}`);
    expect(audited.some((e) => e.verb === 'watch'), 'it watched').toBe(true);
    expect([...new Set(audited.map((e) => e.verb))].sort().filter((v) => !['get', 'list', 'watch'].includes(v))).toEqual([]);
  });

  it('follows a namespace (triage) until nothing in it is pending', async () => {
    await c.apply([{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'second', namespace: 'watched' }, spec: { nodeSelector: { tier: 'second' }, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] } }]);
    await c.waitForPodScheduled('watched', 'second');
    const run = startWhyPending(c, VIEWER, ['-n', 'watched', '--watch']);
    try {
      await run.waitFor(/1 pending pod in namespace watched, 1 cause:\n {2}1 x \[cannot be scheduled, NodeAffinity\] Pod watched\/second cannot be scheduled/);
      await c.kubectl(['label', 'node', 'worker-1', 'tier=second', '--overwrite']);
      // Bound, not yet running: still pending, now for the kubelet.
      await run.waitFor(/1 pending pod in namespace watched, 1 cause \(after a change of [^)]*\):\n {2}1 x \[scheduled, not running\]/);
      await c.api.patch('/api/v1/namespaces/watched/pods/second/status', { status: { phase: 'Running' } });
      expect(await run.ended, run.stderr()).toBe(0);
      expect(run.output()).toMatch(/No pending pods left in namespace watched\. Done\.\n$/);
    } finally {
      run.kill();
    }
    // Beside the cluster's version (read once a round), lists and watches only.
    const verbs = new Set((await run.audited()).filter((e) => e.requestURI !== '/version').map((e) => e.verb));
    expect([...verbs].sort(), 'lists and watches only').toEqual(['list', 'watch']);
  });
});
