// Every capture scenario (test/e2e/scenarios-capture/*.yaml, then the live-only ones in
// test/e2e/scenarios-live/) on a real control plane: the
// scheduler decides, `kubectl why-pending` runs through kubectl's plugin lookup as a read-only
// user, and its answer is checked against the control plane itself:
//   - the stage is the one the pod's (or owner's) state shows;
//   - for every node, our first failing plugin is the scheduler's verdict for a copy of the pod
//     pinned to that node (created by the admin after the run), and no node the scheduler
//     rejected is said to fit. The pin is capture.ts's required node affinity on
//     metadata.name, except for pods with a Honor spread constraint, whose spread counts that
//     pin would change: those are pinned by cordoning every other node (harness/probe.ts);
//   - scheduler.agrees is true where the scheduler's message has per-node counts;
//   - the user sent nothing but get, list and watch (audit log; see harness/why-pending.ts);
//   - the capture --save wrote of that read gives the very same diagnosis (JSON, whole), and so
//     does the capture of the same read by a user who may read the scenario's namespace only;
//   - a dump of the same cluster gives the same diagnosis through --from-dump.
//
// One control plane serves the whole file; between scenarios every namespace, pod, node and
// cluster-scoped scenario object is deleted and the test waits until they are gone.
// WHY_PENDING_E2E_CLUSTER=fresh starts a control plane per scenario instead (slower; see the
// timing lines). Scenarios run in file-name order.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitSchedulerMessage } from '../support/scheduler-reasons.js';
import { requests, writes } from './harness/audit.js';
import type { TestCluster } from './harness/index.js';
import { kubectl } from './harness/kubectl.js';
import { comparableFirstPlugin } from '../support/probe-verdict.js';
import { nodeVerdict, pinningHidesSpread, probeNodes, probeNodesByCordon, type NodeVerdict } from './harness/probe.js';
import { namespaceReadObjects, readmeRoles } from './harness/rbac.js';
import { LIVE_ONLY_DIR, applyScenario, captureScenarios, resetCluster, settleScenario, type CaptureScenario, type Target } from './harness/scenario.js';
import { Timer, VIEWER, dumpCluster, expectReadOnlyRules, roundTripView, secs, startE2eCluster } from './harness/suite.js';
import { describeRun, whyPending, type DiagnosisJson } from './harness/why-pending.js';

const FRESH = process.env.WHY_PENDING_E2E_CLUSTER === 'fresh';
/** A user who may read the scenario's namespace only (the README's Role, bound there). */
const NAMESPACE_READER = 'wp-ns-reader';
const startCluster = () => startE2eCluster({ users: [{ name: NAMESPACE_READER }] });
const scenarios = [...captureScenarios(), ...captureScenarios(LIVE_ONLY_DIR)];
const lines: string[] = [];
let ran = 0;

/** Checks our per-node answer against the scheduler's per-node verdicts (from pinned copies). */
function checkNodes(json: DiagnosisJson, verdicts: Map<string, NodeVerdict>, nodeNames: string[]): void {
  const preFilters = [...new Set([...verdicts.values()].flatMap((v) => ('preFilter' in v ? [v.preFilter] : [])))];
  if (preFilters.length > 0) {
    expect([...verdicts.values()].every((v) => 'preFilter' in v), `mixed PreFilter and per-node verdicts: ${JSON.stringify([...verdicts])}`).toBe(true);
    expect(json.preFilter.map((r) => r.plugin)).toEqual(preFilters);
    for (const n of json.nodes) expect(n.fits, `${n.name} fits although the scheduler failed the pod in PreFilter`).toBe(false);
    return;
  }
  expect(json.nodes.map((n) => n.name).sort()).toEqual([...nodeNames].sort());
  for (const n of json.nodes) {
    const v = verdicts.get(n.name);
    if (!v || !('plugin' in v)) throw new Error(`no verdict for ${n.name}`);
    if (v.plugin !== 'fits') expect(n.fits, `${n.name}: we say it fits; the scheduler says ${v.plugin}`).toBe(false);
    expect(comparableFirstPlugin(n.firstPlugin ?? 'fits', n.unchecked ?? [], v.plugin), `${n.name}: our first failing plugin vs the scheduler's`).toBe(v.plugin);
  }
}

const show = (verdicts: Map<string, NodeVerdict>) => [...verdicts].map(([n, v]) => `${n}=${'plugin' in v ? v.plugin : `PreFilter:${v.preFilter}`}`).join(' ');

async function checkTarget(c: TestCluster, s: CaptureScenario, t: Target, timer: Timer): Promise<string> {
  const nodeNames = s.nodes.map((n) => n.name);
  const args = [t.query, '-n', t.namespace, '-o', 'json'];
  const saved = join(c.dir, `${s.name}-${t.query.replace('/', '-')}.capture.tar.gz`);
  const live = await whyPending(c, VIEWER, [...args, '--save', saved]);
  timer.lap('live');
  expect(live.code, describeRun(live)).toBe(0);
  const json = live.json as DiagnosisJson;
  expect(json.stage, describeRun(live)).toBe(t.stage);
  expect(json.gaps, 'a full reader has no gaps').toEqual([]);
  // The release replayed is the control plane's own, read from /version for a pending pod.
  if (json.stage !== 'AdmissionRejected' && json.stage !== 'NotPending') {
    expect(json.cluster?.version, "the cluster's version, as /version serves it").toBe(c.version);
    expect(json.cluster?.assumed).toBe(false);
  }
  expect(live.audited.length, 'the run read the cluster').toBeGreaterThan(0);

  // The scheduler's whole-pod message: where it counts nodes, we agree with it.
  if (t.condition?.message) {
    const parsed = splitSchedulerMessage(t.condition.message);
    expect(json.scheduler.source).toBe('condition');
    expect(json.scheduler.message).toBe(t.condition.message);
    if (parsed.kind === 'nodeCounts') {
      expect(parsed.total, 'the scheduler saw exactly this scenario\'s nodes').toBe(nodeNames.length);
      // A plugin the replay does not evaluate (DynamicResources) leaves its count unconfirmed.
      expect(json.scheduler.agrees, JSON.stringify(json.scheduler.differences)).toBe(json.notChecked.length > 0 ? null : true);
    }
  }
  if (t.stage === 'AdmissionRejected') {
    expect(json.stageDetail.failures?.map((f) => f.message)).toContain(t.failedCreate);
  }

  // The capture --save wrote of that very read gives the very same diagnosis, whole; and so
  // does the capture of a namespace-only reader's partial read (its gaps included).
  const fromCapture = await whyPending(c, undefined, [...args, '--from-dump', saved]);
  expect(fromCapture.code, describeRun(fromCapture)).toBe(0);
  expect(fromCapture.json, 'the diagnosis from the capture of the live read').toEqual(json);
  await c.apply(namespaceReadObjects(t.namespace, [NAMESPACE_READER]));
  const savedPartial = saved.replace(/\.capture\.tar\.gz$/, '.namespace-only.capture');
  const partial = await whyPending(c, NAMESPACE_READER, [...args, '--save', savedPartial]);
  expect(partial.code, describeRun(partial)).toBe(0);
  const partialBack = await whyPending(c, undefined, [...args, '--from-dump', savedPartial]);
  expect(partialBack.json, 'the diagnosis from the capture of the namespace-only read').toEqual(partial.json);
  timer.lap('captures');

  // Round trip: the same cluster as a dump.
  const dump = await dumpCluster(c, `${s.name}-${t.query.replace('/', '-')}`);
  const fromDump = await whyPending(c, undefined, [...args, '--from-dump', dump]);
  timer.lap('dump');
  expect(fromDump.code, describeRun(fromDump)).toBe(0);
  expect(roundTripView(fromDump.json as DiagnosisJson)).toEqual(roundTripView(json));
  expect((fromDump.json as DiagnosisJson).cluster?.version, 'the dump holds `kubectl version -o json`').toBe(c.version);

  // The scheduler's verdict per node, from pinned copies made by the admin.
  let perNode = '';
  if (t.pod && (t.stage === 'Unschedulable' || t.stage === 'SchedulingGated' || t.stage === 'NoScheduler')) {
    const opts = { dropSchedulingGates: true, schedulerName: 'default-scheduler' };
    const pin = pinningHidesSpread(t.pod) ? 'cordon' : 'affinity';
    const probes = pin === 'cordon' ? await probeNodesByCordon(c, t.pod, nodeNames, opts) : await probeNodes(c, t.pod, nodeNames, opts);
    timer.lap('probes');
    const verdicts = new Map(nodeNames.map((n) => [n, nodeVerdict(n, probes[n] ?? { error: 'no probe' }, nodeNames.length, pin)] as const));
    checkNodes(json, verdicts, nodeNames);
    perNode = ` ${show(verdicts)}${pin === 'cordon' ? ' (pinned by cordons)' : ''}`;
    if (pin === 'cordon') {
      // What capture.ts's pin would have said, to show why it is not used here.
      const byAffinity = await probeNodes(c, t.pod, nodeNames, opts);
      const other = new Map(nodeNames.map((n) => [n, nodeVerdict(n, byAffinity[n] ?? { error: 'no probe' }, nodeNames.length)] as const));
      const differ = new Map([...other].filter(([n, v]) => JSON.stringify(v) !== JSON.stringify(verdicts.get(n))));
      if (differ.size > 0) perNode += `; a node-affinity pin would say ${show(differ)}`;
      timer.lap('affinity probes');
    }
  }
  return `${t.namespace}/${t.query} ${json.stage}${perNode}`;
}

describe('capture scenarios on a live control plane', () => {
  let shared: TestCluster | undefined;
  let started = 0;

  beforeAll(async () => {
    expectReadOnlyRules(readmeRoles().clusterRole);
    started = Date.now();
    if (!FRESH) shared = await startCluster();
    lines.push(`[e2e] live-scenarios: control plane (${FRESH ? 'one per scenario' : 'one for the file'}) started in ${secs(Date.now() - started)}`);
  });

  afterAll(async () => {
    await shared?.stop();
    lines.push(`[e2e] live-scenarios: ${ran} scenarios in ${secs(Date.now() - started)}`);
    console.log(lines.join('\n'));
  });

  it('has the capture scenarios', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(15);
  });

  it('the audit check sees a write by the read-only user', async () => {
    // The control for the read-only proof: `kubectl auth whoami` creates a SelfSubjectReview
    // (allowed to every authenticated user); the audit log must show it as a write.
    const c = shared ?? (await startCluster());
    try {
      const mark = c.audit.mark();
      await kubectl(c.kubeconfigFor(VIEWER), ['auth', 'whoami']);
      const seen = requests(await c.audit.settle(c.clientFor(VIEWER), VIEWER, mark));
      expect(writes(seen).map((e) => `${e.verb} ${e.objectRef?.resource ?? ''}`)).toEqual(['create selfsubjectreviews']);
    } finally {
      if (!shared) await c.stop();
    }
  });

  it.each(scenarios)('$name', async (s) => {
    ran++;
    const timer = new Timer();
    let c = shared;
    if (!c) {
      c = await startCluster();
      timer.lap('start');
    }
    const results: string[] = [];
    try {
      await applyScenario(c, s);
      timer.lap('apply');
      const targets = await settleScenario(c, s);
      timer.lap('settle');
      expect(targets.length, 'the scenario leaves something pending').toBeGreaterThan(0);
      for (const t of targets) results.push(await checkTarget(c, s, t, timer));
    } finally {
      if (shared) {
        try {
          await resetCluster(shared);
        } catch (e) {
          // Not clean: the next scenarios get a new control plane rather than this one's leftovers.
          await shared.stop();
          shared = await startCluster();
          console.warn(`[e2e] reset after ${s.name} failed, control plane restarted: ${String(e)}`);
        }
        timer.lap('reset');
      } else {
        await c.stop();
        timer.lap('stop');
      }
      const line = timer.line(`${s.name}: ${results.join('; ') || 'failed'}`);
      lines.push(line);
      console.log(line);
    }
  });
});
