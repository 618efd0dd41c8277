// Karpenter for real: its KWOK provider (sigs.k8s.io/karpenter v1.15.0) and kwok v0.8.0 against
// the test control plane (harness/karpenter.ts), so the NodeClaims, their conditions and
// Karpenter's pod events are the ones it writes, and kwok makes the pods it places Running.
//   (i) a pod no existing node fits but a NodePool does: Karpenter nominates it to a NodeClaim,
//       whose node takes 20 s to register; why-pending shows the pod waiting for that NodeClaim,
//       and --watch follows it until kwok reports it running (exit 0);
//  (ii) a pod whose toleration writes the NodePool's taint value in capitals: Karpenter's own
//       FailedScheduling names the taint but not the NodePool; why-pending names NodePool gpu and
//       shows the value character by character.
// Read-only throughout (the audit log of the viewer's requests).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestCluster } from './harness/index.js';
import { KWOK_ANNOTATION, karpenterControlPlane, startKarpenter, type Karpenter } from './harness/karpenter.js';
import { VIEWER, secs, startE2eCluster } from './harness/suite.js';
import { waitFor } from './harness/wait.js';
import { describeRun, startWhyPending, whyPendingAndCapture } from './harness/why-pending.js';

const nodeClassRef = { group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name: 'default' };
const linux = { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] };

interface EventLike {
  reason?: string;
  message?: string;
  reportingComponent?: string;
  source?: { component?: string };
}

/** Karpenter's event of `reason` on the pod (the scheduler writes FailedScheduling too). */
function karpenterEvent(c: TestCluster, ns: string, pod: string, reason: string): Promise<EventLike> {
  return waitFor(`Karpenter's ${reason} on ${ns}/${pod}`, async () => {
    const list = await c.api.get<{ items: EventLike[] }>(`/api/v1/namespaces/${ns}/events?fieldSelector=${encodeURIComponent(`involvedObject.name=${pod},reason=${reason}`)}`);
    return list.items.find((e) => (e.reportingComponent || e.source?.component) === 'karpenter');
  }, { timeoutMs: 90_000 });
}

interface AutoscalerJson {
  autoscaler: string;
  state: string;
  nodeClaim?: string;
  claim?: { name: string; found: boolean; nodePool?: string; waitingFor?: string; conditions: { type: string; status: string; reason?: string }[] };
  nodePools?: { nodePool: string; fits: boolean; problems: { kind: string; taint?: { key: string; value?: string; effect: string }; nearest?: { mismatches: { field: string; wanted: string; actual: string; diff?: { kinds: string[] } }[] } }[] }[];
  reconciliation?: { agrees: boolean };
  message: string;
}

describe('Karpenter (KWOK provider) and kwok', () => {
  let c: TestCluster;
  let k: Karpenter;
  const lines: string[] = [];

  beforeAll(async () => {
    const t0 = Date.now();
    c = await startE2eCluster({ controlPlane: karpenterControlPlane() });
    // Too small for either pod; kwok keeps it Ready like the nodes Karpenter adds.
    await c.createNode('existing-1', { allocatable: { cpu: '1', memory: '2Gi' }, annotations: { [KWOK_ANNOTATION.key]: KWOK_ANNOTATION.value } });
    k = await startKarpenter(c, { nodeRegistrationDelay: '20s' });
    await c.apply([
      { apiVersion: 'karpenter.sh/v1', kind: 'NodePool', metadata: { name: 'general' }, spec: { template: { spec: { nodeClassRef, requirements: [linux] } }, limits: { cpu: '100' } } },
      {
        apiVersion: 'karpenter.sh/v1',
        kind: 'NodePool',
        metadata: { name: 'gpu' },
        spec: { template: { metadata: { labels: { pool: 'gpu' } }, spec: { nodeClassRef, requirements: [linux], taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } } },
      },
    ]);
    for (const pool of ['general', 'gpu']) await c.kubectl(['wait', '--for=condition=Ready', '--timeout=60s', `nodepool/${pool}`]);
    lines.push(`[e2e] karpenter: control plane, Karpenter and kwok ready in ${secs(Date.now() - t0)}`);
  });

  afterAll(async () => {
    await k?.stop();
    await c?.stop();
    console.log(lines.join('\n'));
  });

  it('(i) a pod nominated to a real NodeClaim waits for it; --watch follows it until kwok runs it, exit 0', async () => {
    await c.apply([{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'web', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '2' } } }] } }]);
    const t0 = Date.now();
    const nominated = await karpenterEvent(c, 'default', 'web', 'Nominated');
    const claimName = /nodeclaim\/(\S+)/.exec(nominated.message ?? '')?.[1] ?? '';
    expect(nominated.message).toMatch(/^Pod should schedule on: nodeclaim\/general-[a-z0-9]+$/);
    lines.push(`[e2e] karpenter: nominated ${secs(Date.now() - t0)} after the pod: ${nominated.message ?? ''}`);

    const run = await whyPendingAndCapture(c, VIEWER, ['web', '-n', 'default', '-o', 'json']);
    expect(run.code, describeRun(run)).toBe(0);
    const d = run.json!;
    expect(d.stage).toBe('WaitingForScaleUp');
    const a = d.stageDetail['autoscaler'] as AutoscalerJson;
    expect(a).toMatchObject({ autoscaler: 'karpenter', state: 'scaleUpTriggered', nodeClaim: claimName });
    expect(a.claim).toMatchObject({ name: claimName, found: true, nodePool: 'general', waitingFor: 'Registered' });
    expect(a.claim?.conditions.find((x) => x.type === 'Launched')?.status).toBe('True');
    expect(a.claim?.conditions.find((x) => x.type === 'Registered')).toMatchObject({ status: 'Unknown', reason: 'NodeNotFound' });
    expect(run.audited.some((e) => e.objectRef?.resource === 'nodeclaims' && e.objectRef.apiGroup === 'karpenter.sh'), 'read the NodeClaims').toBe(true);

    const watch = startWhyPending(c, VIEWER, ['web', '-n', 'default', '--watch']);
    try {
      await watch.waitFor(new RegExp(`Pod default/web is waiting for Karpenter's NodeClaim ${claimName} of NodePool general \\(launched \\d+s ago; not registered yet\\)\\. 0 of 1 node fit: 1 node has 1 cpu allocatable in all, less than the 2 the pod asks\\.`));
      // The node registers after the node class's 20 s; kwok makes it Ready and the pod Running.
      expect(await watch.ended, watch.stderr()).toBe(0);
      lines.push(`[e2e] karpenter: --watch ended ${secs(Date.now() - t0)} after the pod was created:\n${watch.output()}`);
      expect(watch.output()).toMatch(/Pod default\/web is running on node \S+: no longer pending\. Done\.\n$/);
    } finally {
      watch.kill();
    }
    const verbs = [...new Set((await watch.audited()).map((e) => e.verb))];
    expect(verbs.filter((v) => !['get', 'list', 'watch'].includes(v))).toEqual([]);
  });

  it("(ii) a toleration that misses a NodePool's taint by letter case: Karpenter's real refusal, the NodePool named, the characters shown", async () => {
    await c.apply([
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'train', namespace: 'default' },
        spec: {
          nodeSelector: { pool: 'gpu' },
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'GPU', effect: 'NoSchedule' }],
          containers: [{ name: 'train', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '1' } } }],
        },
      },
    ]);
    const refused = await karpenterEvent(c, 'default', 'train', 'FailedScheduling');
    lines.push(`[e2e] karpenter: refused: ${refused.message ?? ''}`);
    // Karpenter names the taint, not the NodePool (pkg/scheduling/taints.go).
    expect(refused.message).toContain('did not tolerate taint (taint=dedicated=gpu:NoSchedule)');

    const run = await whyPendingAndCapture(c, VIEWER, ['train', '-n', 'default', '-o', 'json']);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.json!.stage).toBe('ScaleUpNotPossible');
    const a = run.json!.stageDetail['autoscaler'] as AutoscalerJson;
    expect(a).toMatchObject({ autoscaler: 'karpenter', state: 'scaleUpNotPossible', reconciliation: { agrees: true } });
    const gpu = a.nodePools?.find((p) => p.nodePool === 'gpu');
    expect(gpu?.fits).toBe(false);
    expect(gpu?.problems).toHaveLength(1);
    const taint = gpu?.problems[0];
    expect(taint?.kind).toBe('untoleratedTaint');
    expect(taint?.taint).toEqual({ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' });
    expect(taint?.nearest?.mismatches).toMatchObject([{ field: 'value', wanted: 'GPU', actual: 'gpu', diff: { kinds: ['case'] } }]);
    expect(a.nodePools?.find((p) => p.nodePool === 'general')?.problems.map((p) => p.kind)).toEqual(['undefinedLabel']);

    const human = await whyPendingAndCapture(c, VIEWER, ['train', '-n', 'default']);
    expect(human.code, describeRun(human)).toBe(0);
    lines.push(`[e2e] karpenter: the report of train:\n${human.stdout}`);
    expect(human.stdout.split('\n')[0]).toContain(`Karpenter will add no node for it: NodePool gpu's taint dedicated=gpu:NoSchedule vs toleration value "GPU"`);
    expect(human.stdout).toContain('  gpu      its nodes carry taint dedicated=gpu:NoSchedule, which the pod does not tolerate (nearest toleration #1: dedicated=GPU:NoSchedule)');
    expect(human.stdout).toMatch(/ {8}pod: {6}GPU\n {8}nodepool: gpu\n {18}\^\^\^\n/);
  });
});
