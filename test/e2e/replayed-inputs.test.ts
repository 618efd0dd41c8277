// What the scheduler adds to a node before it filters a pod there, read live on a real control
// plane: pods nominated to the node (a preemption waiting for its victim), and the labels of the
// pod's namespace that an existing pod's anti-affinity namespaceSelector reads. The full reader
// (the README's ClusterRole) gets the scheduler's answer on every node, the nominated pod and
// the namespace named; a reader the README's ClusterRole without namespaces gets the node whose
// answer turns on them as not proven (never fits) and the permission named; a namespace-only
// reader gets no node called fitting. Every request a read (audit log).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestCluster } from './harness/index.js';
import { clusterReadWithoutNamespaces, namespaceReadObjects } from './harness/rbac.js';
import { applyScenario, captureScenarios, resetCluster, settleScenario } from './harness/scenario.js';
import { Timer, VIEWER, expectNoWrites, secs, startE2eCluster } from './harness/suite.js';
import { describeRun, whyPending, type DiagnosisJson } from './harness/why-pending.js';

const NO_NAMESPACES = 'wp-no-namespaces';
const NS_ONLY = 'wp-ns-only';
const scenario = (name: string) => {
  const found = captureScenarios().find((s) => s.name === name);
  if (!found) throw new Error(`no capture scenario ${name}`);
  return found;
};

describe('inputs the scheduler adds before it filters, read live', () => {
  let c: TestCluster;
  const lines: string[] = [];

  beforeAll(async () => {
    const t0 = Date.now();
    c = await startE2eCluster({ users: [{ name: NO_NAMESPACES }, { name: NS_ONLY }] });
    await c.apply(clusterReadWithoutNamespaces(NO_NAMESPACES));
    await expectNoWrites(c, NO_NAMESPACES);
    lines.push(`[e2e] replayed inputs: control plane started in ${secs(Date.now() - t0)}`);
  });

  afterAll(async () => {
    await c?.stop();
    console.log(lines.join('\n'));
  });

  it('a pod nominated to a node holds its room there', async () => {
    const timer = new Timer();
    const s = scenario('nominated-pod-holds-room');
    try {
      await applyScenario(c, s);
      const targets = await settleScenario(c, s);
      const report = targets.find((t) => t.query === 'report');
      expect(report?.condition?.message).toMatch(/^0\/2 nodes are available: 2 Insufficient cpu\./);
      const run = await whyPending(c, VIEWER, ['report', '-n', 'prod', '-o', 'json']);
      expect(run.code, describeRun(run)).toBe(0);
      const json = run.json as DiagnosisJson;
      expect(json.nodes.map((n) => [n.name, n.verdict, n.firstPlugin])).toEqual([
        ['worker-1', 'fails', 'NodeResourcesFit'],
        ['worker-2', 'fails', 'NodeResourcesFit'],
      ]);
      expect(json.nodes[0]?.nominated).toEqual({ decides: true, pods: [expect.objectContaining({ namespace: 'prod', name: 'checkout', priority: 10000, waitingOn: [{ namespace: 'batch', name: 'batch-0' }] })] });
      expect(json.scheduler.agrees).toBe(true);
      // One LIST by field selector finds the nominated pods; every request a read.
      expect(run.audited.some((e) => e.verb === 'list' && e.objectRef?.resource === 'pods' && decodeURIComponent(e.requestURI).includes('status.nominatedNodeName!='))).toBe(true);
      expect(run.audited.every((e) => ['get', 'list', 'watch'].includes(e.verb))).toBe(true);
      const human = await whyPending(c, VIEWER, ['report', '-n', 'prod']);
      expect(human.stdout).toContain('worker-1 would fit but for room held for the nominated pod prod/checkout');
      // The nominated pod itself is never its own nominated pod.
      const own = await whyPending(c, VIEWER, ['checkout', '-n', 'prod', '-o', 'json']);
      expect((own.json as DiagnosisJson).nodes.every((n) => !n.nominated)).toBe(true);
      lines.push(timer.line(`nominated: ${json.summary}`));
    } finally {
      await resetCluster(c);
    }
  });

  it("an existing pod's anti-affinity selects the pod's namespace by its labels", async () => {
    const timer = new Timer();
    const s = scenario('namespace-selector-existing-anti-affinity');
    try {
      await applyScenario(c, s);
      const [target] = await settleScenario(c, s);
      expect(target?.condition?.message).toContain("1 node(s) didn't satisfy existing pods anti-affinity rules");
      await c.apply(namespaceReadObjects('shop', [NS_ONLY]));
      const args = ['web-0', '-n', 'shop', '-o', 'json'];

      const full = await whyPending(c, VIEWER, args);
      expect(full.code, describeRun(full)).toBe(0);
      const fullJson = full.json as DiagnosisJson;
      expect(fullJson.nodes.map((n) => [n.name, n.firstPlugin])).toEqual([
        ['worker-1', 'InterPodAffinity'],
        ['worker-2', 'NodeResourcesFit'],
      ]);
      expect(fullJson.scheduler.agrees).toBe(true);
      expect(full.audited.some((e) => e.verb === 'get' && e.objectRef?.resource === 'namespaces' && e.objectRef.name === 'shop')).toBe(true);

      const partial = await whyPending(c, NO_NAMESPACES, args);
      expect(partial.code, describeRun(partial)).toBe(0);
      const partialJson = partial.json as DiagnosisJson;
      expect(partialJson.nodes.map((n) => [n.name, n.verdict])).toEqual([
        ['worker-1', 'unproven'],
        ['worker-2', 'fails'],
      ]);
      expect(partialJson.gaps).toContainEqual({ collection: 'namespaces', cause: 'forbidden', permission: { verb: 'get', resource: 'namespaces', scope: 'cluster' } });
      expect(partialJson.notChecked).toContainEqual(expect.objectContaining({ plugin: 'InterPodAffinity', kind: 'namespaceLabelsUnread', namespace: 'shop', nodes: ['worker-1'] }));
      const human = await whyPending(c, NO_NAMESPACES, ['web-0', '-n', 'shop']);
      expect(human.stdout).toContain('needs "get namespaces" at cluster scope');

      const nsOnly = await whyPending(c, NS_ONLY, args);
      expect(nsOnly.code, describeRun(nsOnly)).toBe(0);
      expect((nsOnly.json as DiagnosisJson).nodes.filter((n) => n.fits)).toEqual([]);
      for (const run of [full, partial, nsOnly]) expect(run.audited.every((e) => ['get', 'list', 'watch'].includes(e.verb))).toBe(true);
      lines.push(timer.line(`namespaceSelector: ${fullJson.summary}`));
    } finally {
      await resetCluster(c);
    }
  });
});
