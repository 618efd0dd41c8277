// What the user named: a pod, or an owner (`deploy/web`, `rs/web-7d9`, `job/x`, `sts/db`,
// `cronjob/y`, `ds/agent`) whose pods, or whose FailedCreate events, explain the wait.
import type { V1ObjectMeta, V1Pod } from '@kubernetes/client-node';
import { collectionOfKind, isOwnerKind, type ClusterEvent, type OwnerKind, type Snapshot } from '../snapshot/types.js';
import { eventsAbout, type ObjectRef } from './events.js';
import { descendants, findOwner } from './owners.js';
import { similarity } from './nearmiss/index.js';
import { byText } from './order.js';

const kindAliases: Record<string, OwnerKind | 'Pod'> = {
  po: 'Pod',
  pod: 'Pod',
  pods: 'Pod',
  deploy: 'Deployment',
  deployment: 'Deployment',
  deployments: 'Deployment',
  rs: 'ReplicaSet',
  replicaset: 'ReplicaSet',
  replicasets: 'ReplicaSet',
  sts: 'StatefulSet',
  statefulset: 'StatefulSet',
  statefulsets: 'StatefulSet',
  ds: 'DaemonSet',
  daemonset: 'DaemonSet',
  daemonsets: 'DaemonSet',
  job: 'Job',
  jobs: 'Job',
  cj: 'CronJob',
  cronjob: 'CronJob',
  cronjobs: 'CronJob',
};

export interface Query {
  namespace: string;
  /** `name` or `kind/name`, as typed. */
  name: string;
}

/** Why a name given on the command line names nothing; src/messages/errors.ts words it. */
export type QueryProblem = { kind: 'unknownResourceType'; type: string } | { kind: 'noName'; text: string };

export class QueryError extends Error {
  constructor(readonly problem: QueryProblem) {
    super(problem.kind);
  }
}

export function parseQuery(text: string): { kind: OwnerKind | 'Pod'; name: string } {
  const slash = text.indexOf('/');
  if (slash === -1) return { kind: 'Pod', name: text };
  const alias = text.slice(0, slash).toLowerCase().replace(/\.(apps|batch)$/, '');
  const name = text.slice(slash + 1);
  const kind = kindAliases[alias];
  if (!kind) throw new QueryError({ kind: 'unknownResourceType', type: text.slice(0, slash) });
  if (!name) throw new QueryError({ kind: 'noName', text });
  return { kind, name };
}

export type Resolution =
  | { found: 'pod'; pod: V1Pod; resolvedFrom?: ObjectRef; otherPending: string[] }
  | { found: 'admissionRejected'; owner: ObjectRef; failures: ClusterEvent[]; ownerPath: ObjectRef[] }
  | { found: 'ownerWithoutPods'; owner: ObjectRef; events: ClusterEvent[] }
  /**
   * `suggestions`: names in the namespace like the one asked for, near misses (a look-alike,
   * letter case, white space) first; `elsewhere`: the other namespaces where one of that kind
   * has exactly that name, sorted.
   */
  | { found: 'nothing'; kind: string; suggestions: string[]; elsewhere: string[] };

function isPending(pod: V1Pod): boolean {
  return (pod.status?.phase ?? 'Pending') === 'Pending';
}

// A FailedCreate event names the pod it could not create (`pods "web-0" is forbidden: ...`)
// or, for ReplicaSets and Jobs, only the owner.
function failedCreates(snapshot: Snapshot, owners: ObjectRef[]): { owner: ObjectRef; failures: ClusterEvent[] } | undefined {
  for (const owner of owners) {
    const failures = eventsAbout(snapshot, owner).filter((e) => e.reason === 'FailedCreate');
    if (failures.length > 0) return { owner, failures };
  }
  return undefined;
}

export function resolve(snapshot: Snapshot, query: Query): Resolution {
  const { kind, name } = parseQuery(query.name);
  const ns = query.namespace;
  const inNs = (p: V1Pod) => (p.metadata?.namespace ?? 'default') === ns;
  if (kind === 'Pod') {
    // The name first: one comparison for most of 50,000 pods, and no list of the namespace's.
    const pod = snapshot.objects.pods.find((p) => p.metadata?.name === name && inNs(p));
    if (pod) return { found: 'pod', pod, otherPending: [] };
    // The pod may never have been admitted: look for an owner that failed to create it.
    const creators = snapshot.objects.events.filter(
      (e) => e.reason === 'FailedCreate' && e.involved.namespace === ns && e.message.includes(`"${name}"`),
    );
    const creator = creators[creators.length - 1];
    if (creator) {
      const owner = { kind: creator.involved.kind, namespace: ns, name: creator.involved.name, ...(creator.involved.uid ? { uid: creator.involved.uid } : {}) };
      return { found: 'admissionRejected', owner, failures: creators.filter((e) => e.involved.name === owner.name), ownerPath: [owner] };
    }
    const elsewhere = snapshot.objects.pods.filter((p) => p.metadata?.name === name).map((p) => p.metadata?.namespace ?? 'default');
    return { found: 'nothing', kind: 'pod', suggestions: closest(name, snapshot.objects.pods.filter(inNs).map((p) => p.metadata?.name ?? '')), elsewhere: namespacesBut(ns, elsewhere) };
  }
  const ownerObject = isOwnerKind(kind) ? findOwner(snapshot, kind, ns, name) : undefined;
  const owner: ObjectRef = { kind, namespace: ns, name, ...(ownerObject?.metadata?.uid ? { uid: ownerObject.metadata.uid } : {}) };
  const ownerEvents = eventsAbout(snapshot, owner);
  if (!ownerObject && ownerEvents.length === 0) {
    const named = [...ownersNamed(snapshot, kind), ...snapshot.objects.events.filter((e) => e.involved.kind === kind).map((e) => ({ namespace: e.involved.namespace, name: e.involved.name }))];
    const sameKind = named.filter((o) => o.namespace === ns).map((o) => o.name);
    // Named by its pods' references though the input lacks the object: found through them below.
    if (!sameKind.includes(name)) {
      const elsewhere = named.filter((o) => o.name === name).map((o) => o.namespace);
      return { found: 'nothing', kind: kind.toLowerCase(), suggestions: closest(name, sameKind), elsewhere: namespacesBut(ns, elsewhere) };
    }
  }
  const below = descendants(snapshot, owner);
  const sorted = [...below.pods].sort((a, b) => byText(a.metadata?.name ?? '', b.metadata?.name ?? ''));
  const pending = sorted.filter(isPending);
  const chosen = pending[0];
  if (chosen) {
    return { found: 'pod', pod: chosen, resolvedFrom: owner, otherPending: pending.slice(1).map((p) => p.metadata?.name ?? '') };
  }
  const failed = failedCreates(snapshot, [owner, ...below.owners]);
  if (failed) return { found: 'admissionRejected', owner: failed.owner, failures: failed.failures, ownerPath: [owner, ...below.owners] };
  const anyPod = sorted[0];
  if (anyPod) return { found: 'pod', pod: anyPod, resolvedFrom: owner, otherPending: [] };
  return { found: 'ownerWithoutPods', owner, events: ownerEvents };
}

type Owned = { metadata?: V1ObjectMeta };

/**
 * The owners of a kind the snapshot knows of: the objects (a dump holds them even when no event
 * names them), and those named by the controller references of pods, ReplicaSets and Jobs.
 */
function ownersNamed(snapshot: Snapshot, kind: OwnerKind): { namespace: string; name: string }[] {
  const objects = snapshot.objects[collectionOfKind[kind]] as Owned[];
  const children = [...snapshot.objects.pods, ...snapshot.objects.replicaSets, ...snapshot.objects.jobs] as Owned[];
  return [
    ...objects.map((o) => ({ namespace: o.metadata?.namespace ?? 'default', name: o.metadata?.name ?? '' })),
    ...children.flatMap((c) => (c.metadata?.ownerReferences ?? []).filter((r) => r.kind === kind).map((r) => ({ namespace: c.metadata?.namespace ?? 'default', name: r.name }))),
  ];
}

function namespacesBut(ns: string, namespaces: string[]): string[] {
  return [...new Set(namespaces)].filter((n) => n !== ns).sort(byText);
}

function closest(name: string, candidates: string[]): string[] {
  return [...new Set(candidates)]
    .map((c) => ({ c, score: similarity(name, c) }))
    .filter((x) => x.score >= 0.4)
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .map((x) => x.c);
}
