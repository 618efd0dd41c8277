// cluster-autoscaler on a real control plane, without cluster-autoscaler: the scheduler fails
// three pods that ask more cpu than any node has; then, as the admin, the test writes what
// cluster-autoscaler would: its status ConfigMap kube-system/cluster-autoscaler-status (YAML, as
// CA 1.30+ writes it: clusterstate/api/types.go at d610672804edab46a4931a26a9d11435cd698787) and
// core/v1 events on the pods (reportingComponent and source cluster-autoscaler, the messages of
// processors/status/eventing_scale_up_processor.go at 16c271a3078a6f808270c4823207f97db9538437).
// The live diagnosis must find each pod's autoscaler stage, reading the ConfigMap with one GET of
// that object (never a list of ConfigMaps), as the README's read-only user; a namespace-only user
// (no Role in kube-system) gets the same stages with a gap naming the permission; with no
// ConfigMap, the status is "absent", not a gap; the README's dump of the cluster gives the same
// stages. Every request is a read (audit log).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TriageV1 } from '../../src/report/triage/contract.js';
import type { AuditEvent, TestCluster } from './harness/index.js';
import { namespaceReadObjects } from './harness/rbac.js';
import { VIEWER, dumpCluster, expectNoWrites, secs, startE2eCluster } from './harness/suite.js';
import { waitFor } from './harness/wait.js';
import { describeRun, whyPending, whyPendingAndCapture, type DiagnosisJson } from './harness/why-pending.js';

const NS = 'scale-demo';
const NS_USER = 'wp-scale-ns';
const pause = 'registry.k8s.io/pause:3.10';
const statusPath = '/api/v1/namespaces/kube-system/configmaps/cluster-autoscaler-status';

const pod = (name: string, cpu: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: NS, labels: { app: name } },
  spec: { containers: [{ name, image: pause, resources: { requests: { cpu } } }] },
});

/** The status CA 1.30+ writes (sigs.k8s.io/yaml of api.ClusterAutoscalerStatus), at `time`. */
function caStatus(time: Date): string {
  const go = time.toISOString().replace('T', ' ').replace('Z', ' +0000 UTC');
  const rfc = time.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `autoscalerStatus: Running
clusterWide:
  health:
    lastProbeTime: "${rfc}"
    lastTransitionTime: "2026-11-30T08:00:00Z"
    nodeCounts:
      longUnregistered: 0
      registered:
        notStarted: 0
        ready: 2
        total: 2
      unregistered: 2
    status: Healthy
  scaleDown:
    lastProbeTime: "${rfc}"
    lastTransitionTime: "2026-11-30T08:00:00Z"
    status: NoCandidates
  scaleUp:
    lastProbeTime: "${rfc}"
    lastTransitionTime: "${rfc}"
    status: InProgress
nodeGroups:
- health:
    cloudProviderTarget: 2
    lastProbeTime: "${rfc}"
    lastTransitionTime: "2026-11-30T08:00:00Z"
    maxSize: 5
    minSize: 0
    nodeCounts:
      longUnregistered: 0
      registered:
        notStarted: 0
        ready: 0
        total: 0
      unregistered: 2
    status: Healthy
  name: ng-large
  scaleDown:
    lastProbeTime: "${rfc}"
    lastTransitionTime: "2026-11-30T08:00:00Z"
    status: NoCandidates
  scaleUp:
    lastProbeTime: "${rfc}"
    lastTransitionTime: "${rfc}"
    status: InProgress
- health:
    cloudProviderTarget: 0
    lastProbeTime: "${rfc}"
    lastTransitionTime: "2026-11-30T08:00:00Z"
    maxSize: 3
    minSize: 0
    nodeCounts:
      longUnregistered: 0
      registered:
        notStarted: 0
        ready: 0
        total: 0
      unregistered: 0
    status: Healthy
  name: ng-gpu
  scaleDown:
    lastProbeTime: "${rfc}"
    lastTransitionTime: "2026-11-30T08:00:00Z"
    status: NoCandidates
  scaleUp:
    backoffInfo:
      errorCode: QUOTA_EXCEEDED
      errorMessage: 'Instance ''ng-gpu-40ce0341-t28s'' creation failed: Quota ''GPUS_ALL_REGIONS'' exceeded. Limit: 0.0 globally.'
    lastProbeTime: "${rfc}"
    lastTransitionTime: "${rfc}"
    status: Backoff
time: ${go}
`;
}

/** A core/v1 Event as client-go's recorder writes it for cluster-autoscaler. */
function caEvent(podName: string, uid: string, reason: string, message: string, at: Date): Record<string, unknown> {
  const ts = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${podName}.ca-${reason.toLowerCase()}`, namespace: NS },
    involvedObject: { apiVersion: 'v1', kind: 'Pod', namespace: NS, name: podName, uid },
    reason,
    message,
    type: 'Normal',
    source: { component: 'cluster-autoscaler' },
    reportingComponent: 'cluster-autoscaler',
    reportingInstance: '',
    firstTimestamp: ts,
    lastTimestamp: ts,
    count: 1,
  };
}

const statusReads = (audited: AuditEvent[]) => audited.filter((e) => e.objectRef?.resource === 'configmaps');

describe("cluster-autoscaler's events and status ConfigMap, live", () => {
  let c: TestCluster;
  const lines: string[] = [];

  beforeAll(async () => {
    const t0 = Date.now();
    c = await startE2eCluster({ users: [{ name: NS_USER }] });
    await c.createNode('worker-1');
    await c.createNode('worker-2');
    await c.apply([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }, pod('web-0', '6'), pod('gpu-0', '6'), pod('batch-0', '5')]);
    await c.apply(namespaceReadObjects(NS, [NS_USER]));
    await expectNoWrites(c, NS_USER, NS);
    const uids: Record<string, string> = {};
    for (const name of ['web-0', 'gpu-0', 'batch-0']) {
      const { pod: p, condition } = await c.waitForPodScheduled(NS, name);
      expect(condition.reason).toBe('Unschedulable');
      uids[name] = (p.metadata as { uid?: string }).uid ?? '';
      await c.waitForEvent(NS, name, 'FailedScheduling');
    }
    // Event times have whole seconds: one second past the scheduler's last failure.
    await new Promise((r) => setTimeout(r, 1100));
    const now = new Date();
    await c.api.post('/api/v1/namespaces/kube-system/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cluster-autoscaler-status', namespace: 'kube-system', annotations: { 'cluster-autoscaler.kubernetes.io/last-updated': caStatus(now).split('time: ')[1]?.trim() ?? '' } },
      data: { status: caStatus(now) },
    });
    // A ConfigMap beside it that a reader must never print.
    await c.api.post(`/api/v1/namespaces/${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-settings', namespace: NS }, data: { password: 'do-not-print-me' } });
    for (const e of [
      caEvent('web-0', uids['web-0'] ?? '', 'TriggeredScaleUp', 'pod triggered scale-up: [{ng-large 0->2 (max: 5)}]', now),
      caEvent('gpu-0', uids['gpu-0'] ?? '', 'TriggeredScaleUp', 'pod triggered scale-up: [{ng-gpu 0->1 (max: 3)}]', now),
      caEvent('batch-0', uids['batch-0'] ?? '', 'NotTriggerScaleUp', "pod didn't trigger scale-up: 1 node(s) had untolerated taint(s), 1 max node group size reached", now),
    ]) {
      await c.api.post(`/api/v1/namespaces/${NS}/events`, e);
    }
    lines.push(`[e2e] autoscaler: control plane and pods ready in ${secs(Date.now() - t0)}`);
  });

  afterAll(async () => {
    await c?.stop();
    console.log(lines.join('\n'));
  });

  it('the full reader: each pod in its autoscaler stage, the status read with one GET', async () => {
    const want: Record<string, Record<string, unknown>> = {
      'web-0': { stage: 'WaitingForScaleUp', confirmedBy: 'statusConfigMap', autoscaler: { autoscaler: 'cluster-autoscaler', state: 'scaleUpTriggered', groups: [{ group: 'ng-large', from: 0, to: 2, max: 5 }] } },
      'gpu-0': { stage: 'ScaleUpNotPossible', cause: 'backoff', backedOff: [{ name: 'ng-gpu', scaleUp: 'Backoff', backoff: { errorCode: 'QUOTA_EXCEEDED' } }] },
      'batch-0': {
        stage: 'ScaleUpNotPossible',
        cause: 'noScaleUp',
        reconciliation: { autoscalerOnly: ['TaintToleration'], replayOnly: ['NodeResourcesFit'], reasons: [{ plugin: 'TaintToleration' }, { own: 'maxNodeGroupSize' }] },
      },
    };
    for (const [name, detail] of Object.entries(want)) {
      const run = await whyPendingAndCapture(c, VIEWER, [name, '-n', NS, '-o', 'json']);
      expect(run.code, describeRun(run)).toBe(0);
      const json = run.json as DiagnosisJson;
      expect(json.stage, name).toBe(detail['stage']);
      expect(json.stageDetail, name).toMatchObject(detail);
      expect(json.stageDetail['autoscalerStatus'], name).toMatchObject({ read: 'found', format: 'yaml', clusterHealth: 'Healthy' });
      expect(json.gaps, name).toEqual([]);
      const reads = statusReads(run.audited);
      expect(reads.map((e) => `${e.verb} ${e.objectRef?.namespace ?? ''}/${e.objectRef?.name ?? ''} ${e.responseStatus?.code ?? ''}`), name).toEqual(['get kube-system/cluster-autoscaler-status 200']);
      expect(run.stdout).not.toContain('do-not-print-me');
      lines.push(`[e2e] autoscaler ${name}: ${json.stage} in ${run.ms} ms, ${run.audited.length} requests`);
    }
    const human = await whyPendingAndCapture(c, VIEWER, ['gpu-0', '-n', NS]);
    expect(human.code, describeRun(human)).toBe(0);
    expect(human.stdout).toContain('the scale-up cluster-autoscaler started for it failed: ng-gpu is backed off');
    expect(human.stdout).toContain('(QUOTA_EXCEEDED)');
    expect(human.stdout).toContain("Quota 'GPUS_ALL_REGIONS' exceeded");
  });

  it("the README's dump of the cluster gives the same stages", async () => {
    const dir = await dumpCluster(c, 'autoscaler');
    for (const [name, stage] of [['web-0', 'WaitingForScaleUp'], ['gpu-0', 'ScaleUpNotPossible'], ['batch-0', 'ScaleUpNotPossible']] as const) {
      const live = await whyPendingAndCapture(c, VIEWER, [name, '-n', NS, '-o', 'json']);
      const dump = await whyPending(c, undefined, [name, '-n', NS, '-o', 'json', '--from-dump', dir]);
      expect(dump.code, describeRun(dump)).toBe(0);
      const json = dump.json as DiagnosisJson;
      expect(json.stage, name).toBe(stage);
      expect(json.stageDetail, name).toEqual((live.json as DiagnosisJson).stageDetail);
      expect(json.gaps, name).toEqual([]);
    }
  });

  it('a triage reads the status once for all pods', async () => {
    const run = await whyPendingAndCapture(c, VIEWER, ['-n', NS, '-o', 'json']);
    expect(run.code, describeRun(run)).toBe(0);
    const doc = run.json as unknown as TriageV1;
    expect(doc.groups.map((g) => g.cause.stage).sort()).toEqual(['ScaleUpNotPossible', 'ScaleUpNotPossible', 'WaitingForScaleUp']);
    expect(statusReads(run.audited).map((e) => e.verb)).toEqual(['get']);
    expect(run.stdout).not.toContain('do-not-print-me');
  });

  it('a namespace-only reader: the same stages by the events, and a gap naming the permission', async () => {
    for (const [name, stage] of [['web-0', 'WaitingForScaleUp'], ['batch-0', 'ScaleUpNotPossible']] as const) {
      const run = await whyPending(c, NS_USER, [name, '-n', NS, '-o', 'json']);
      expect(run.code, describeRun(run)).toBe(0);
      const json = run.json as DiagnosisJson;
      expect(json.stage).toBe(stage);
      if (stage === 'WaitingForScaleUp') expect(json.stageDetail).toMatchObject({ confirmedBy: 'event' });
      expect(json.stageDetail['autoscalerStatus']).toBeUndefined();
      expect(json.gaps).toContainEqual({ collection: 'clusterAutoscalerStatus', cause: 'forbidden', permission: { verb: 'get', resource: 'configmaps', scope: 'namespace kube-system' } });
      expect(statusReads(run.audited).map((e) => `${e.verb} ${e.responseStatus?.code ?? ''}`)).toEqual(['get 403']);
    }
    const human = await whyPending(c, NS_USER, ['web-0', '-n', NS]);
    expect(human.code, describeRun(human)).toBe(0);
    expect(human.stdout).toContain(`cannot read cluster-autoscaler's status (configmap kube-system/cluster-autoscaler-status): forbidden; needs "get configmaps" in namespace kube-system`);
  });

  it('no status ConfigMap: said, and not a gap', async () => {
    await c.api.delete(statusPath);
    await waitFor('the status ConfigMap gone', async () => {
      const r = await c.api.raw('GET', statusPath);
      return r.status === 404 ? true : undefined;
    });
    const run = await whyPendingAndCapture(c, VIEWER, ['web-0', '-n', NS, '-o', 'json']);
    expect(run.code, describeRun(run)).toBe(0);
    const json = run.json as DiagnosisJson;
    expect(json.stage).toBe('WaitingForScaleUp');
    expect(json.stageDetail).toMatchObject({ confirmedBy: 'event', autoscalerStatus: { read: 'absent' } });
    expect(json.gaps).toEqual([]);
    expect(statusReads(run.audited).map((e) => `${e.verb} ${e.responseStatus?.code ?? ''}`)).toEqual(['get 404']);
  });
});
