// The scheduler's own words, and whether our per-node verdicts tell the same story. The
// scheduler's message counts reasons ("2 Insufficient cpu, 1 node(s) had untolerated
// taint(s)"): one per node per failing plugin, one per resource for NodeResourcesFit. We tally
// our first failing plugin per node the same way and compare the tallies.
import type { V1Pod } from '@kubernetes/client-node';
import type { ClusterEvent } from '../snapshot/types.js';
import type { DisagreementEvidence } from './disagreement.js';
import type { Reason, Rule } from './reasons.js';
import type { RuleContext } from './model.js';
import type { NodeVerdict } from './judge.js';
import type { PluginName } from './names.js';
import { countVerdicts } from './verdictCounts.js';
import { isAutoscalerEvent } from './story/autoscaler.js';
import { isCutAtEventLimit, parseSchedulerMessage, type ParsedSchedulerMessage, type SchedulerCatalog } from './scheduler-message/index.js';

export type LikelyCause =
  | 'nominatedPods'
  | 'namespacesUnread'
  | 'notModelled'
  | 'newerThanAttempt'
  | 'clusterChanged'
  | 'nodeCountDiffers'
  | 'unknownWording'
  | 'truncatedEvent'
  | 'nonDefaultScheduler'
  | 'partialData'
  /**
   * The pods of nodes that node objects alone rule out were not read (they cannot change those
   * nodes' verdicts): there, the replay's reasons of a plugin that counts pods are the ones it
   * proves without them, and the scheduler's counts may hold more (Insufficient memory, Too many
   * pods beside a cpu request over the node's whole allocatable).
   */
  | 'podsUnread';

/**
 * Where the replay's reasons are a lower bound because the nodes' pods were not read: the
 * plugins that count pods (for this pod), and the nodes whose pods were not read.
 */
export interface PodsUnread {
  plugins: ReadonlySet<string>;
  nodes: ReadonlySet<string>;
}

export interface TallyDifference {
  key: string;
  scheduler: number;
  engine: number;
}

export interface Agreement {
  /** The scheduler's latest word: the PodScheduled condition when present (never truncated), else the event. */
  message?: string;
  source: 'condition' | 'event' | 'none';
  conditionReason?: string;
  /** The text is an event the scheduler cut at its 1 KiB limit (1024 bytes ending in " ..."). */
  truncated: boolean;
  parsed?: ParsedSchedulerMessage;
  /** null when there is nothing to compare (no message, or a stage where the scheduler did not judge nodes). */
  agrees: boolean | null;
  schedulerTally: Record<string, number>;
  engineTally: Record<string, number>;
  differences: TallyDifference[];
  /** Most likely first: what the input shows the replay could not account for, then changes since the scheduler's attempt. */
  likelyCauses: LikelyCause[];
  /** What the input shows for those causes (set where the two differ). */
  evidence?: DisagreementEvidence;
}

export function schedulerWords(pod: V1Pod | undefined, podEvents: ClusterEvent[]): Pick<Agreement, 'message' | 'source' | 'conditionReason' | 'truncated'> {
  const scheduled = pod?.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'True');
  // Bound: the scheduler's last word is the binding; older FailedScheduling events are history.
  if (scheduled) return { source: 'condition', conditionReason: scheduled.reason ?? 'Scheduled', truncated: false };
  const condition = pod?.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  // Karpenter writes FailedScheduling too, in its own words: not the scheduler's.
  const event = [...podEvents].reverse().find((e) => e.reason === 'FailedScheduling' && !isAutoscalerEvent(e));
  if (condition?.message) {
    return { message: condition.message, source: 'condition', conditionReason: condition.reason ?? '', truncated: false };
  }
  if (event) {
    return { message: event.message, source: 'event', truncated: isCutAtEventLimit(event.message) };
  }
  return { source: 'none', truncated: false, ...(condition?.reason ? { conditionReason: condition.reason } : {}) };
}

// "NodeResourcesFit: Insufficient cpu", built once per resource: a key built for each of 5,000
// nodes would be a new string to hash each time it indexes the tally.
const insufficientKeys = new Map<string, string>();

/** How one reason shows in the scheduler's counts. */
function tallyKey(reason: { plugin?: string; detail?: unknown }): string {
  const detail = reason.detail as { kind?: string; resource?: string } | undefined;
  if (reason.plugin === 'NodeResourcesFit' && detail?.resource) {
    const resource = detail.resource;
    let key = insufficientKeys.get(resource);
    if (key === undefined) {
      key = resource === 'pods' ? 'NodeResourcesFit: Too many pods' : `NodeResourcesFit: Insufficient ${resource}`;
      if (insufficientKeys.size < 1000) insufficientKeys.set(resource, key);
    }
    return key;
  }
  return reason.plugin ?? '?';
}

/** Whether a reason before `at` of the same plugin has the same key: a node counts once per key. */
function keyedBefore(reasons: readonly Reason[], at: number, key: string): boolean {
  const plugin = (reasons[at] as Reason).plugin;
  for (let i = 0; i < at; i++) {
    const r = reasons[i] as Reason;
    if (r.plugin === plugin && tallyKey(r) === key) return true;
  }
  return false;
}

/** Counts one node's reasons `times` (nodes in a row that share their list of reasons). */
function addKeys(tally: Record<string, number>, reasons: readonly Reason[], times: number): void {
  const first = reasons[0];
  if (!first) return;
  // The scheduler counts the first failing plugin's reasons: each of its keys once per node.
  for (let i = 0; i < reasons.length; i++) {
    const reason = reasons[i] as Reason;
    if (reason.plugin !== first.plugin) continue;
    const key = tallyKey(reason);
    if (i > 0 && keyedBefore(reasons, i, key)) continue;
    tally[key] = (tally[key] ?? 0) + times;
  }
}

// Pods of one equivalence class share their verdicts (a triage's 5,000 pending pods are about
// 150 classes): each array is tallied once, and the tally shared (frozen: never changed after).
const talliesOf = new WeakMap<readonly NodeVerdict[], Readonly<Record<string, number>>>();

function engineTally(nodes: NodeVerdict[], preFilter: Reason[]): Record<string, number> {
  if (preFilter[0]) return { [tallyKey(preFilter[0])]: nodes.length };
  let tally = talliesOf.get(nodes);
  if (!tally) {
    tally = Object.freeze(tallyOnce(nodes));
    talliesOf.set(nodes, tally);
  }
  return tally as Record<string, number>;
}

// Indexed loops: this walks 5,000 verdicts once per class, before V8 has compiled it. Nodes
// of one class share their list of reasons (the judge keeps a rule's own list): a run of them is
// counted at once.
function tallyOnce(nodes: NodeVerdict[]): Record<string, number> {
  const tally: Record<string, number> = {};
  let run: readonly Reason[] | undefined;
  let runLength = 0;
  for (let n = 0; n < nodes.length; n++) {
    const reasons = (nodes[n] as NodeVerdict).reasons;
    if (reasons === run) {
      runLength++;
      continue;
    }
    if (run) addKeys(tally, run, runLength);
    run = reasons;
    runLength = 1;
  }
  if (run) addKeys(tally, run, runLength);
  return tally;
}

function schedulerTally(parsed: ParsedSchedulerMessage, nodeCount: number): Record<string, number> {
  const tally: Record<string, number> = {};
  if (parsed.kind === 'preFilter') {
    tally[parsed.preFilterReason?.plugin ?? '?'] = parsed.totalNodes ?? nodeCount;
    return tally;
  }
  // v1.20-21 printed a generic inter-pod affinity reason beside the specific one: count once.
  for (const reason of parsed.reasons.filter((r) => !r.companion)) {
    const resource = reason.detail?.['resource'];
    const key = reason.plugin === 'NodeResourcesFit' ? tallyKey({ plugin: reason.plugin, detail: { resource: resource ?? (/Too many pods/.test(reason.text) ? 'pods' : undefined) } }) : (reason.plugin ?? `? ${reason.text}`);
    tally[key] = (tally[key] ?? 0) + reason.count;
  }
  return tally;
}

export function compareWithScheduler(
  catalog: SchedulerCatalog,
  words: Pick<Agreement, 'message' | 'source' | 'conditionReason' | 'truncated'>,
  nodes: NodeVerdict[],
  preFilter: Reason[],
  judged: boolean,
  partial: boolean,
  evidenceOf: () => DisagreementEvidence = noEvidence,
  podsUnread?: PodsUnread,
): Agreement {
  const ours = engineTally(nodes, preFilter);
  const base: Agreement = { ...words, agrees: null, schedulerTally: {}, engineTally: ours, differences: [], likelyCauses: [] };
  if (!words.message) return base;
  // Only an event can be cut; the condition holds the whole text, whatever it ends with.
  const parsed = parseSchedulerMessage(catalog, words.message, words.source === 'event' ? 'event' : 'condition');
  // Without nodes to replay (none read, or a stage where the scheduler judged none) the
  // message is still explained, but there is nothing to agree or disagree with.
  if (!judged || (parsed.kind !== 'nodeCounts' && parsed.kind !== 'preFilter')) return { ...base, parsed };
  const theirs = schedulerTally(parsed, nodes.length);
  const keys = [...new Set([...Object.keys(theirs), ...Object.keys(ours)])].sort();
  // A truncated event keeps only its first reasons, sorted as text, so one plugin's reasons may
  // be split by the cut (one line per named taint): its kept counts are lower bounds.
  const differences = parsed.truncated
    ? keys.filter((k) => k in theirs && (theirs[k] ?? 0) > (ours[k] ?? 0)).map((key) => ({ key, scheduler: theirs[key] ?? 0, engine: ours[key] ?? 0 }))
    : keys.map((key) => ({ key, scheduler: theirs[key] ?? 0, engine: ours[key] ?? 0 })).filter((d) => d.scheduler !== d.engine);
  // "0/N nodes are available" also claims that N nodes were judged and none fit.
  if (parsed.totalNodes !== undefined && parsed.totalNodes !== nodes.length) {
    differences.push({ key: 'nodes', scheduler: parsed.totalNodes, engine: nodes.length });
  }
  const { fitting } = countVerdicts(nodes);
  if (fitting > 0 && parsed.kind === 'nodeCounts') differences.push({ key: 'fitting nodes', scheduler: 0, engine: fitting });
  // Counts the replay could not check (a gap, a plugin not modelled) are not disagreements:
  // the scheduler saw what the input lacks. When they explain every difference, the answer is
  // "cannot confirm" (null), never "the cluster changed".
  const byUnread = (d: TallyDifference) => podsUnread !== undefined && explainedByUnreadPods(d, nodes, podsUnread);
  if (differences.length > 0 && differences.every((d) => byUnread(d) || explainedByUnchecked(catalog.plugins, d, nodes))) {
    const causes: LikelyCause[] = [
      ...(differences.some(byUnread) ? (['podsUnread'] as const) : []),
      ...(differences.some((d) => !byUnread(d)) ? (['partialData'] as const) : []),
      ...(parsed.truncated ? (['truncatedEvent'] as const) : []),
    ];
    return { ...base, parsed, schedulerTally: theirs, differences, agrees: null, likelyCauses: causes };
  }
  const likelyCauses: LikelyCause[] = [];
  let evidence: DisagreementEvidence | undefined;
  if (differences.length > 0) {
    // What the input shows the replay could not account for first; "the cluster changed" last.
    evidence = evidenceOf();
    if (evidence.nominatedOn.length > 0) likelyCauses.push('nominatedPods');
    if (evidence.namespacesUnread) likelyCauses.push('namespacesUnread');
    if (evidence.notModelled.length > 0) likelyCauses.push('notModelled');
    if (parsed.totalNodes !== undefined && parsed.totalNodes !== nodes.length) likelyCauses.push('nodeCountDiffers');
    if (parsed.unknownReasons.length > 0) likelyCauses.push('unknownWording');
    if (evidence.schedulerName !== undefined) likelyCauses.push('nonDefaultScheduler');
    if (partial) likelyCauses.push('partialData');
    // Dated changes are the cluster's change, told with their times; without any, it is said undated.
    likelyCauses.push(evidence.changeCount > 0 ? 'newerThanAttempt' : 'clusterChanged');
  }
  if (parsed.truncated) likelyCauses.push('truncatedEvent');
  return { ...base, parsed, schedulerTally: theirs, differences, agrees: differences.length === 0, likelyCauses, ...(evidence ? { evidence } : {}) };
}

const noEvidence = (): DisagreementEvidence => ({ nominatedOn: [], namespacesUnread: false, notModelled: [], changes: [], changeCount: 0 });

/** The plugin a tally key counts ("NodeResourcesFit: Insufficient cpu" -> NodeResourcesFit). */
function pluginOfKey(key: string): string {
  return key.split(':')[0] ?? key;
}

/**
 * Where the reader left pods unread (`podsReadOn`: the nodes whose pods it read; undefined, every
 * pod was read), the plugins that count pods for this pod and the nodes whose pods are missing.
 */
export function podsUnread(rules: readonly Rule[], ctx: RuleContext, podsReadOn: readonly string[] | undefined): PodsUnread | undefined {
  if (!podsReadOn) return undefined;
  const read = new Set(podsReadOn);
  const nodes = new Set(ctx.nodes.flatMap((n) => (read.has(n.name) ? [] : [n.name])));
  if (nodes.size === 0) return undefined;
  return { plugins: new Set(rules.filter((r) => r.needs(ctx.pod).includes('pods')).map((r) => r.meta.name)), nodes };
}

/**
 * A difference the unread pods explain: the scheduler counts more of a plugin that counts pods,
 * and that plugin fails some node whose pods were not read (its reasons there are a lower bound).
 */
function explainedByUnreadPods(d: TallyDifference, nodes: readonly NodeVerdict[], unread: PodsUnread): boolean {
  const plugin = pluginOfKey(d.key);
  if (d.scheduler <= d.engine || !unread.plugins.has(plugin)) return false;
  return nodes.some((n) => unread.nodes.has(n.name) && n.reasons.some((r) => r.plugin === plugin));
}

/**
 * A difference the replay's unchecked plugins explain: the scheduler counts more for a plugin
 * some node could not be checked on, or the replay counts more for a plugin that comes after
 * one it could not check (the scheduler stopped earlier on that node).
 */
function explainedByUnchecked(order: readonly PluginName[], d: TallyDifference, nodes: readonly NodeVerdict[]): boolean {
  const plugin = pluginOfKey(d.key);
  const unchecked = new Set(nodes.flatMap((n) => n.unchecked));
  if (unchecked.size === 0) return false;
  if (d.scheduler > d.engine) return unchecked.has(plugin as PluginName);
  const rank = order.indexOf(plugin as PluginName);
  return rank >= 0 && [...unchecked].some((u) => order.indexOf(u) < rank);
}
