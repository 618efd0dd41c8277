// Turns a capture (capture.ts output) into a whole-cluster scenario for test/scenarios.test.ts:
//
//   npx tsx test/e2e/harness/to-scenario.ts <capture-dir> <scenario-folder> <namespace/pod>
//   npx tsx test/e2e/harness/to-scenario.ts <capture-dir> <scenario-folder> <namespace/deploy/name>
//
// Copies <capture-dir>/dump/ (one file per kind) to <folder>/cluster/ and writes <folder>/expected.yaml
// from what the REAL control plane did, never from the why-pending engine:
//   stage        from the pod's state in the dump: scheduling gates -> SchedulingGated; no
//                PodScheduled condition and no scheduling event -> NoScheduler; PodScheduled
//                False/Unschedulable -> Unschedulable; an owner query with no pod and
//                FailedCreate events on the owner or its ReplicaSets -> AdmissionRejected.
//   firstPlugins for an Unschedulable pod, node -> the plugin kube-scheduler reported for the
//                probe copy pinned to that node (per-node.json): the "didn't satisfy
//                plugin(s) [NodeAffinity]" count (the other nodes, left out by the pin) is
//                removed and what remains is mapped to its plugin with the test-side table of
//                the scheduler's reason strings (test/support/scheduler-reasons.ts, kept apart
//                from the engine's catalog); a probe that was scheduled is `fits`. The raw
//                probe conditions are kept beside them in <folder>/probes.yaml, which the
//                scenario runner maps again with the same table.
//   preFilter    instead of firstPlugins when the scheduler failed the pod before any node.
//   scheduler    {agrees: true} when the whole-pod message had per-node counts.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { pluginOfReason, splitSchedulerMessage, type SplitMessage } from '../../support/scheduler-reasons.js';
import { nodeVerdict, type Verdict } from '../../support/probe-verdict.js';

interface PodReport {
  namespace: string;
  name: string;
  podScheduled: Verdict;
  nodes: Record<string, Verdict>;
  /** How each probe was pinned to its node (capture.ts: cordons where the affinity pin would hide spread). */
  pin?: 'affinity' | 'cordon';
}

interface PerNode {
  kubernetesVersion: string;
  /** Set when something other than capture.ts wrote the capture. */
  driver?: string;
  scenario?: string;
  pods: PodReport[];
}

interface Meta {
  name?: string;
  namespace?: string;
  uid?: string;
  ownerReferences?: { kind: string; name: string; uid?: string; controller?: boolean }[];
}

interface K8sObject {
  kind?: string;
  metadata?: Meta;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  involvedObject?: { kind?: string; name?: string; namespace?: string; uid?: string };
  reason?: string;
  message?: string;
  source?: { component?: string };
  reportingComponent?: string;
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

interface Expected {
  description: string;
  capturedFrom: string;
  /** The dump folder, one file per kind (as the README's capture writes it). */
  dump: string;
  query: { namespace: string; name: string };
  stage: string;
  firstPlugins?: Record<string, string>;
  preFilter?: string[];
  scheduler?: { agrees: boolean };
}

const SCHEDULING_REASONS = new Set(['Scheduled', 'FailedScheduling', 'Preempted']);
const OWNER_ALIASES: Record<string, string> = { deploy: 'Deployment', deployment: 'Deployment', deployments: 'Deployment' };

function fail(msg: string): never {
  throw new Error(msg);
}

function readObjects(dir: string): K8sObject[] {
  return readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort().flatMap((f) => {
    const doc = parse(readFileSync(join(dir, f), 'utf8')) as { items?: K8sObject[] } | K8sObject[] | null;
    if (Array.isArray(doc)) return doc;
    return doc?.items ?? [];
  });
}

/** The scenario file's leading comment, joined into one paragraph. */
function scenarioComment(scenario: string | undefined): string {
  if (!scenario) return '';
  const file = existsSync(scenario) ? scenario : resolve(import.meta.dirname, '../../..', scenario);
  if (!existsSync(file)) return '';
  const lines: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('#')) break;
    lines.push(line.replace(/^#\s?/, '').trim());
  }
  return lines.join(' ').replace(/\s+/g, ' ').trim();
}

const podScheduled = (pod: K8sObject): Condition | undefined =>
  ((pod.status?.['conditions'] as Condition[] | undefined) ?? []).find((c) => c.type === 'PodScheduled');

const eventsAbout = (objects: K8sObject[], kind: string, ns: string, name: string): K8sObject[] =>
  objects.filter((o) => o.kind === 'Event' && o.involvedObject?.kind === kind && o.involvedObject.namespace === ns && o.involvedObject.name === name);

/** Per plugin, the number of nodes in the whole-pod message (a node once per plugin). */
function nodesByPlugin(split: SplitMessage & { kind: 'nodeCounts' }): Map<string, number> {
  const out = new Map<string, number>();
  const byPlugin = new Map<string, number[]>();
  for (const r of split.reasons) {
    const key = pluginOfReason(r.reason) ?? `? ${r.reason}`;
    byPlugin.set(key, [...(byPlugin.get(key) ?? []), r.count]);
  }
  // A node gives one reason per plugin, except NodeResourcesFit (one per missing resource):
  // its node count is at least the largest single count, exact when it printed one reason.
  for (const [plugin, counts] of byPlugin) {
    out.set(plugin, plugin === 'NodeResourcesFit' ? Math.max(...counts) : counts.reduce((a, b) => a + b, 0));
  }
  return out;
}

function main(): void {
  const [captureDir, folder, queryText] = process.argv.slice(2);
  if (!captureDir || !folder || !queryText) {
    console.error('usage: npx tsx test/e2e/harness/to-scenario.ts <capture-dir> <scenario-folder> <namespace/pod | namespace/deploy/name>');
    process.exit(2);
  }
  const slash = queryText.indexOf('/');
  if (slash <= 0) fail(`query "${queryText}" is not namespace/name`);
  const namespace = queryText.slice(0, slash);
  const name = queryText.slice(slash + 1);

  const perNode = JSON.parse(readFileSync(join(captureDir, 'per-node.json'), 'utf8')) as PerNode;
  const objects = readObjects(join(captureDir, 'dump'));
  const version = perNode.kubernetesVersion;
  const nodes = objects.filter((o) => o.kind === 'Node').map((o) => o.metadata?.name ?? '');
  const comment = scenarioComment(perNode.scenario);

  const expected: Partial<Expected> & { description: string } = { description: '', capturedFrom: version, query: { namespace, name } };
  const notes: string[] = [];
  let probes: Record<string, unknown> | undefined;

  const ownerSlash = name.indexOf('/');
  if (ownerSlash > 0) {
    // An owner: the pods it made, or the FailedCreate events that say why there are none.
    const kind = OWNER_ALIASES[name.slice(0, ownerSlash).toLowerCase()] ?? fail(`unsupported owner kind in "${name}"`);
    const ownerName = name.slice(ownerSlash + 1);
    const owner = objects.find((o) => o.kind === kind && o.metadata?.namespace === namespace && o.metadata.name === ownerName)
      ?? fail(`${kind} ${namespace}/${ownerName} is not in the dump`);
    const ownedBy = (o: K8sObject, parent: K8sObject) =>
      (o.metadata?.ownerReferences ?? []).some((r) => r.controller && r.uid === parent.metadata?.uid);
    const replicaSets = objects.filter((o) => o.kind === 'ReplicaSet' && ownedBy(o, owner));
    const pods = objects.filter((o) => o.kind === 'Pod' && (ownedBy(o, owner) || replicaSets.some((rs) => ownedBy(o, rs))));
    const failures = [owner, ...replicaSets].flatMap((o) => eventsAbout(objects, o.kind ?? '', namespace, o.metadata?.name ?? '')).filter((e) => e.reason === 'FailedCreate');
    if (pods.length > 0 || failures.length === 0) fail(`${kind} ${namespace}/${ownerName}: ${pods.length} pods, ${failures.length} FailedCreate events; only the no-pod case is supported`);
    expected.stage = 'AdmissionRejected';
    const last = failures[failures.length - 1];
    notes.push(`No pod exists; ${failures.length} FailedCreate events on ${[...new Set(failures.map((e) => `${e.involvedObject?.kind ?? ''}/${e.involvedObject?.name ?? ''}`))].join(', ')}, the last: "${last?.message ?? ''}".`);
  } else {
    const pod = objects.find((o) => o.kind === 'Pod' && o.metadata?.namespace === namespace && o.metadata.name === name)
      ?? fail(`pod ${namespace}/${name} is not in the dump`);
    const condition = podScheduled(pod);
    const gates = (pod.spec?.['schedulingGates'] as { name: string }[] | undefined) ?? [];
    const schedulerName = (pod.spec?.['schedulerName'] as string | undefined) ?? 'default-scheduler';
    const podEvents = eventsAbout(objects, 'Pod', namespace, name);
    if (pod.spec?.['nodeName']) fail(`pod ${namespace}/${name} is bound to ${String(pod.spec['nodeName'])}`);
    if (gates.length > 0 || condition?.reason === 'SchedulingGated') {
      expected.stage = 'SchedulingGated';
      notes.push(`The apiserver set PodScheduled=False/${condition?.reason ?? '-'}: "${condition?.message ?? ''}" (gates: ${gates.map((g) => g.name).join(', ')}).`);
    } else if (!condition && !podEvents.some((e) => SCHEDULING_REASONS.has(e.reason ?? ''))) {
      expected.stage = 'NoScheduler';
      notes.push(`schedulerName is ${schedulerName}; the pod has no PodScheduled condition and no scheduling event.`);
    } else if (condition?.status === 'False' && condition.reason === 'Unschedulable') {
      expected.stage = 'Unschedulable';
      const whole = condition.message ?? '';
      notes.push(`The scheduler said: "${whole}"`);
      const parsedWhole = splitSchedulerMessage(whole);
      const report = perNode.pods.find((p) => p.namespace === namespace && p.name === name) ?? fail(`per-node.json has no report for ${namespace}/${name}`);
      const pin = report.pin ?? 'affinity';
      const verdicts = nodes.map((n) => [n, nodeVerdict(n, report.nodes[n] ?? fail(`per-node.json has no probe for node ${n}`), nodes.length, pin)] as const);
      probes = { kubernetesVersion: version, pin, totalNodes: nodes.length, nodes: Object.fromEntries(nodes.map((n) => [n, report.nodes[n]])) };
      const preFilters = [...new Set(verdicts.flatMap(([, v]) => ('preFilter' in v ? [v.preFilter] : [])))];
      if (preFilters.length > 0) {
        if (preFilters.length !== 1 || verdicts.some(([, v]) => !('preFilter' in v))) fail(`mixed pre-filter verdicts: ${JSON.stringify(verdicts)}`);
        if (parsedWhole.kind !== 'preFilter' || parsedWhole.plugin !== preFilters[0]) fail(`the whole-pod message disagrees with the probes' pre-filter ${preFilters[0] ?? ''}: ${whole}`);
        expected.preFilter = preFilters;
      } else {
        expected.firstPlugins = Object.fromEntries(verdicts.map(([n, v]) => [n, 'plugin' in v ? v.plugin : '']));
        if (parsedWhole.kind === 'nodeCounts') {
          expected.scheduler = { agrees: true };
          // The probes and the whole-pod run should tell the same story; say so when not.
          const fromProbes = new Map<string, number>();
          for (const [, v] of verdicts) if ('plugin' in v && v.plugin !== 'fits') fromProbes.set(v.plugin, (fromProbes.get(v.plugin) ?? 0) + 1);
          const fromWhole = nodesByPlugin(parsedWhole);
          const keys = [...new Set([...fromProbes.keys(), ...fromWhole.keys()])].sort();
          const diffs = keys.filter((k) => (fromProbes.get(k) ?? 0) !== (fromWhole.get(k) ?? 0));
          if (diffs.length > 0) {
            console.warn(`warning: per-node probes and the whole-pod message differ on ${diffs.map((k) => `${k} (probes ${fromProbes.get(k) ?? 0}, whole ${fromWhole.get(k) ?? 0})`).join(', ')}`);
          }
        }
      }
    } else {
      fail(`pod ${namespace}/${name}: unsupported state, PodScheduled ${JSON.stringify(condition)}`);
    }
  }

  const origin = `Captured from a real ${version} control plane (etcd, kube-apiserver, kube-scheduler, kube-controller-manager; no kubelet) by ${perNode.driver ?? 'test/e2e/harness/capture.ts'}`
    + (expected.firstPlugins ? '; firstPlugins are the scheduler\'s verdicts for probe copies of the pod pinned to one node each.' : '.');
  expected.description = [comment, notes.join(' '), origin].filter(Boolean).join('\n');

  const ordered: Expected = {
    description: expected.description,
    capturedFrom: version,
    dump: 'cluster',
    query: { namespace, name },
    stage: expected.stage ?? fail('no stage'),
    ...(expected.firstPlugins ? { firstPlugins: expected.firstPlugins } : {}),
    ...(expected.preFilter ? { preFilter: expected.preFilter } : {}),
    ...(expected.scheduler ? { scheduler: expected.scheduler } : {}),
  };
  mkdirSync(folder, { recursive: true });
  cpSync(join(captureDir, 'dump'), join(folder, 'cluster'), { recursive: true });
  writeFileSync(join(folder, 'expected.yaml'), stringify(ordered, { lineWidth: 100 }));
  if (probes) writeFileSync(join(folder, 'probes.yaml'), `# The scheduler's PodScheduled condition for each probe copy of the pod, pinned to one node\n# (${String(probes['pin'])} pin), as captured; test/scenarios.test.ts maps them to plugins with\n# test/support/scheduler-reasons.ts, not with the engine.\n${stringify(probes, { lineWidth: 0 })}`);
  console.log(`wrote ${join(folder, 'cluster')} and ${join(folder, 'expected.yaml')} (stage ${ordered.stage})`);
}

try {
  main();
} catch (err) {
  console.error(`to-scenario: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
