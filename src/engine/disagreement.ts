// Why the replay and the scheduler may differ, from what the input shows: first what the replay
// could not account for (pods nominated to the nodes, namespaces it could not read, a plugin or
// feature it does not model, another scheduler's profile, objects newer than the scheduler's
// last attempt), and only then "the cluster changed". Each with its evidence.
import type { V1Pod } from '@kubernetes/client-node';
import { deletionAskedAt, newestOf, toTime, type ClusterEvent, type Snapshot } from '../snapshot/types.js';
import type { NodeVerdict, NotChecked } from './judge.js';
import type { PluginName } from './names.js';

/** A change the input shows after the scheduler's last attempt. */
export interface ChangeSince {
  kind: 'Pod' | 'Node';
  namespace?: string;
  name: string;
  /** What happened: a pod created (bound since), a pod marked for deletion, a node condition turned. */
  what: 'created' | 'deleting' | 'condition';
  /** When (ms since the epoch). */
  at: number;
  /** For a node condition: its type and status now. */
  condition?: string;
}

/** What the input shows that the replay may not match the scheduler's last attempt on. */
export interface DisagreementEvidence {
  /** The scheduler's last attempt: its PodScheduled condition or newest FailedScheduling event (ms). */
  lastAttempt?: number;
  /** Nodes where pods nominated to them add failures (the scheduler may have tried before or after the nomination). */
  nominatedOn: string[];
  /** The pod's namespace labels were unread where an existing pod's namespaceSelector needs them. */
  namespacesUnread: boolean;
  /** Plugins the replay does not model for this pod or on some nodes. */
  notModelled: PluginName[];
  /** The pod asks for a scheduler other than default-scheduler, whose profile may differ. */
  schedulerName?: string;
  /** Changes after the last attempt, newest first (the first few), and how many in all. */
  changes: ChangeSince[];
  changeCount: number;
}

const changesShown = 5;

function lastAttemptOf(pod: V1Pod, podEvents: readonly ClusterEvent[]): number | undefined {
  const condition = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  const failed = podEvents.filter((e) => e.reason === 'FailedScheduling').map((e) => e.time);
  return newestOf([toTime(condition?.lastProbeTime), toTime(condition?.lastTransitionTime), ...failed]);
}

/** Each change after `since`, with the node it touches (a pod's node, or the node itself). */
function changesSince(snapshot: Snapshot, since: number, target: V1Pod): { change: ChangeSince; node: string }[] {
  const out: { change: ChangeSince; node: string }[] = [];
  const self = target.metadata?.uid;
  for (const pod of snapshot.objects.pods) {
    const node = pod.spec?.nodeName;
    if (!node || (self !== undefined && pod.metadata?.uid === self)) continue;
    const ref = { kind: 'Pod' as const, namespace: pod.metadata?.namespace ?? 'default', name: pod.metadata?.name ?? '' };
    const created = toTime(pod.metadata?.creationTimestamp);
    if (created !== undefined && created > since) out.push({ change: { ...ref, what: 'created', at: created }, node });
    const asked = deletionAskedAt(pod.metadata?.deletionTimestamp, pod.metadata?.deletionGracePeriodSeconds);
    if (asked !== undefined && asked > since) out.push({ change: { ...ref, what: 'deleting', at: asked }, node });
  }
  // One change per node: its Ready condition where that turned, else the newest that did.
  for (const node of snapshot.objects.nodes) {
    const turned = (node.status?.conditions ?? []).filter((c) => (toTime(c.lastTransitionTime) ?? 0) > since);
    const c = turned.find((t) => t.type === 'Ready') ?? turned.sort((a, b) => (toTime(b.lastTransitionTime) ?? 0) - (toTime(a.lastTransitionTime) ?? 0))[0];
    const name = node.metadata?.name ?? '';
    if (c) out.push({ change: { kind: 'Node', name, what: 'condition', at: toTime(c.lastTransitionTime) ?? since, condition: `${c.type}=${c.status}` }, node: name });
  }
  return out.sort(({ change: a }, { change: b }) => b.at - a.at || `${a.namespace ?? ''}/${a.name}`.localeCompare(`${b.namespace ?? ''}/${b.name}`));
}

/** The evidence for a disagreement, read from the input; computed only when there is one. */
export function disagreementEvidence(snapshot: Snapshot, pod: V1Pod, podEvents: readonly ClusterEvent[], nodes: readonly NodeVerdict[], notChecked: readonly NotChecked[]): DisagreementEvidence {
  const lastAttempt = lastAttemptOf(pod, podEvents);
  const changes = lastAttempt !== undefined ? changesSince(snapshot, lastAttempt, pod).map((c) => c.change) : [];
  const schedulerName = pod.spec?.schedulerName;
  return {
    ...(lastAttempt !== undefined ? { lastAttempt } : {}),
    nominatedOn: nodes.filter((n) => n.nominated).map((n) => n.name),
    namespacesUnread: notChecked.some((n) => n.cause === 'notModelledOnNodes' && n.kind === 'namespaceLabelsUnread'),
    notModelled: [...new Set(notChecked.filter((n) => n.cause !== 'gap' && !(n.cause === 'notModelledOnNodes' && n.kind === 'namespaceLabelsUnread')).map((n) => n.plugin))],
    ...(schedulerName && schedulerName !== 'default-scheduler' ? { schedulerName } : {}),
    changes: changes.slice(0, changesShown),
    changeCount: changes.length,
  };
}

/**
 * The nodes in dispute: found to fit where the scheduler's message says no node does, with
 * nothing dated after its last attempt on them to explain the difference. Neither side is
 * proven there: they are told as unknown, not as fitting.
 */
export function disputedNodes(snapshot: Snapshot, pod: V1Pod, podEvents: readonly ClusterEvent[], nodes: readonly NodeVerdict[], agrees: boolean | null, saysNoneFit: boolean): ReadonlySet<string> {
  if (agrees !== false || !saysNoneFit) return new Set();
  const fitting = nodes.filter((n) => n.verdict === 'fits').map((n) => n.name);
  if (fitting.length === 0) return new Set();
  const lastAttempt = lastAttemptOf(pod, podEvents);
  // Explained: the nodes the evidence's dated changes touch (one definition of a change for both).
  const changed = new Set(lastAttempt === undefined ? [] : changesSince(snapshot, lastAttempt, pod).map((c) => c.node));
  return new Set(fitting.filter((name) => !changed.has(name)));
}
