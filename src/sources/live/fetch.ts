// The live source: reads what the engine needs from a cluster, in stages, GET only.
//   1. the target: the pod, or the owner named `kind/name` with what is below it, from which
//      the engine's own resolver picks the pod (the first request: it warms up credentials);
//   2. in parallel: the pod's events, its owner chain and their events, the nodes (or, for a pod
//      bound already, its node), the namespace's LimitRanges and ResourceQuotas, PriorityClasses,
//      and when a rule needs them for the pod (its volumes), its claims, their volumes,
//      StorageClasses and CSINodes;
//   3. only when the stage is one where nodes are judged: the pods that can change a verdict:
//      those bound to candidate nodes (nodes passing the node-only checks, see plan.ts), one
//      fieldSelector read per node when there are few, one paged read of every non-terminal pod
//      otherwise; pods that the pod's affinity and spread selectors count; users of its
//      ReadWriteOncePod claims; the claims and volumes of candidates' pods when volume limits
//      apply. A pod whose every node fails on node objects alone costs no pod read at all;
//   3b. when cluster-autoscaler wrote about the pod (TriggeredScaleUp, NotTriggerScaleUp): its
//      status ConfigMap, one GET of kube-system/cluster-autoscaler-status (404: no status; 403:
//      a gap), of which only the `status` key is kept;
//   4. a pending preemption: the nominated node's pods, and the PodDisruptionBudgets of the
//      namespaces of its lower-priority pods; a pod never admitted: the owner that reports it,
//      the namespace's quotas and LimitRanges (the refusal's arithmetic).
// A 403 on anything but the target becomes a gap naming the permission, and reading goes on.
import type { V1ConfigMap, V1LabelSelector, V1Node, V1ObjectMeta, V1OwnerReference, V1PersistentVolume, V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import {
  candidateNodes,
  planReads,
  claimClassName,
  claimNamesOf,
  eventsAbout,
  formatLabelSelector,
  hasAttachableVolumes,
  hasRequiredAntiAffinity,
  inSelection,
  parseQuery,
  podClaimRefs,
  podGroupOf,
  podSelections,
  priorityOf,
  resolve,
  rules,
  selectsNamespacesByLabel,
  volumeClassName,
  type PodSelection,
} from '../../engine/readPlan.js';
import { emptyCollections, type CollectionName, type Collections, type Gap, type NamespaceRecord, type NodeRecord, type Snapshot } from '../../snapshot/types.js';
import { toClusterEvent } from '../dump/objects.js';
import type { Source } from '../source.js';
import type { LiveConfig } from './config.js';
import { namespaceRecord, statusOnly } from './compact.js';
import { neighbourListCut, nodeListCut, type ListCut } from './cuts.js';
import { ApiStatusError, forbiddenTarget, unexpectedStatus } from './errors.js';
import { escapeField, kindWord, nominatedPodsSelector, nonTerminal, ownerResource, pathOf, rbacName, resources, scopeOf, type Resource } from './resources.js';
import { Transport, type ReadLiveOptions } from './transport.js';
import { readOrGap } from './guard.js';
import { readTriageLive } from './triage.js';
import { readClusterVersion } from './version.js';
import { watcher } from './watch.js';

export interface LiveQuery {
  namespace: string;
  /** `name` or `kind/name`, as typed. */
  name: string;
}

// One read per node costs a request each, in parallel within the limiter; a paged read of every
// pod costs them all. 100 per-node reads take about what the node list takes (BENCHMARKS.md).
const perObjectReadsDefault = 100;
// Namespaces whose pods are read at once when every pod is read: on 2 cores, 4 beat 2 and
// matched 8 (BENCHMARKS.md). Each reads its pages one after another: with four streams the
// apiserver has work enough, and asking for the next page early only kept twice as many pages
// in memory (25 MB more at 2,500 nodes).
const namespaceReadsAtOnce = 4;
/** Every pod bound to a node and not terminal: the pods the filters count. */
const everyPodQuery = { fieldSelector: `spec.nodeName!=,${nonTerminal}` };
const partialMetadata = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json;q=0.9';
// A namespace as the engine reads it: its name and labels (spec and status are never read).
const namespaceCut: ListCut<NamespaceRecord> = { reduce: namespaceRecord };

interface Meta {
  metadata?: V1ObjectMeta;
}

function namespaceOf(object: Meta): string {
  return object.metadata?.namespace ?? 'default';
}

function controllerOf(metadata: V1ObjectMeta | undefined): V1OwnerReference | undefined {
  const refs = metadata?.ownerReferences ?? [];
  return refs.find((ref) => ref.controller) ?? refs[0];
}

function ownedBy(object: Meta, owner: Meta): boolean {
  const uid = owner.metadata?.uid;
  return (object.metadata?.ownerReferences ?? []).some((ref) => (uid ? ref.uid === uid : ref.name === owner.metadata?.name));
}

function objectKey(object: Meta): string {
  return object.metadata?.uid || `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

function isPending(pod: V1Pod): boolean {
  return (pod.status?.phase ?? 'Pending') === 'Pending';
}

class LiveReader {
  private readonly objects: Collections = emptyCollections();
  private readonly gaps: Gap[] = [];
  /** The nodes whose pods stage 3 read; unset until it runs (see Snapshot.podsReadOn). */
  private podsReadOn: string[] | undefined;
  /** What `/version` said (Snapshot.cluster); unset until read. */
  private cluster: Snapshot['cluster'];
  private readonly seen = new Map<CollectionName, Set<string>>();
  private readonly eventQueries = new Set<string>();
  private nodesListed: Promise<void> | undefined;
  private podsForbiddenClusterWide = false;
  /** The read of every pod, when listNodes started it before the plan asked for it. */
  private everyPodStarted: Promise<V1Pod[] | undefined> | undefined;
  /** How pods on nodes are read; one per read, so that strings repeated across its pages are kept once. */
  private readonly neighbours = neighbourListCut();

  constructor(
    private readonly transport: Transport,
    private readonly config: LiveConfig,
    private readonly progress: (line: string) => void,
    private readonly perObjectReadsUpTo: number,
  ) {}

  /** Continues from an earlier read of this source: its objects, gaps and the nodes whose pods it read. */
  resume(earlier: Snapshot): void {
    for (const [collection, items] of Object.entries(earlier.objects) as [CollectionName, unknown[]][]) {
      if (collection === 'events') {
        (this.objects.events as unknown[]).push(...items);
        continue;
      }
      this.add(collection, items);
    }
    for (const gap of earlier.gaps) this.addGap(gap);
    if (earlier.podsReadOn) this.podsReadOn = [...earlier.podsReadOn];
    if (earlier.cluster) this.cluster = earlier.cluster;
  }

  /**
   * The pods of nodes the first read skipped (node objects ruled them out), so that a fix
   * replayed there (tolerate the taint, add the label) is judged against what runs on them.
   */
  async podsOn(target: V1Pod, nodes: readonly string[]): Promise<void> {
    const todo = nodes.filter((n) => !(this.podsReadOn ?? []).includes(n));
    if (todo.length === 0) return;
    this.progress(`reading the pods of ${todo.length} more node${todo.length === 1 ? '' : 's'} to confirm a fix`);
    await Promise.all(todo.map((node) => this.podsOnNode(node)));
    // Room nominated pods hold on those nodes counts against the fix too (the first read skipped
    // it when node objects ruled out every node).
    await Promise.all([this.neighbourVolumes(target, todo), this.nominatedPods(target)]);
    this.podsReadOn = [...(this.podsReadOn ?? []), ...todo];
  }

  snapshot(): Snapshot {
    return {
      source: { kind: 'live', description: this.config.describe },
      objects: this.objects,
      gaps: this.gaps,
      ...(this.podsReadOn ? { podsReadOn: this.podsReadOn } : {}),
      ...(this.cluster ? { cluster: this.cluster } : {}),
    };
  }

  async read(query: LiveQuery): Promise<void> {
    const target = parseQuery(query.name);
    const ns = query.namespace;
    let pod: V1Pod | undefined;
    if (target.kind === 'Pod') {
      const what = `reading pod ${ns}/${target.name}`;
      this.progress(what);
      pod = await this.getTarget<V1Pod>(resources.pods, ns, target.name, what);
      if (!pod) return this.podNotFound(ns, target.name);
      this.add('pods', [pod]);
    } else {
      pod = await this.fromOwner(target.kind, target.name, ns, query.name);
      if (!pod) return;
    }
    await this.aroundPod(pod);
  }

  // --- bookkeeping ---

  private add(collection: Exclude<CollectionName, 'events'>, items: readonly unknown[]): void {
    const seen = this.seen.get(collection) ?? new Set<string>();
    this.seen.set(collection, seen);
    const list = this.objects[collection] as unknown[];
    for (const item of items) {
      const key = objectKey(item as Meta);
      if (seen.has(key)) continue;
      seen.add(key);
      list.push(item);
    }
  }

  private addGap(gap: Gap): void {
    const key = JSON.stringify(gap);
    if (!this.gaps.some((g) => JSON.stringify(g) === key)) this.gaps.push(gap);
  }

  private find<T extends Meta>(collection: Exclude<CollectionName, 'events'>, namespace: string | undefined, name: string): T | undefined {
    return (this.objects[collection] as T[]).find((o) => o.metadata?.name === name && (namespace === undefined || namespaceOf(o) === namespace));
  }

  // --- reading, with 403/404 handled ---

  /** The target itself: 404 is "not found"; 403 ends the run with the permission to ask for. */
  private async getTarget<T>(r: Resource, namespace: string, name: string, what: string): Promise<T | undefined> {
    try {
      return (await this.transport.get({ path: pathOf(r, namespace, name), what })) as T;
    } catch (error) {
      if (!(error instanceof ApiStatusError)) throw error;
      if (error.status === 404) return undefined;
      if (error.status === 403) throw forbiddenTarget(error, { verb: 'get', resource: rbacName(r), scope: scopeOf(r, namespace) });
      throw unexpectedStatus(error);
    }
  }

  /** A read the diagnosis can do without: refused or failed, a gap (guard.ts), and undefined. */
  private guarded<T>(r: Resource, verb: 'get' | 'list', namespace: string | undefined, what: string, run: () => Promise<T>, notFoundIsAbsent = verb === 'get'): Promise<T | undefined> {
    return readOrGap((gap) => this.addGap(gap), r, verb, namespace, what, run, notFoundIsAbsent);
  }

  private async getOne<T extends Meta>(r: Resource, namespace: string | undefined, name: string, what: string): Promise<T | undefined> {
    const found = await this.guarded(r, 'get', namespace, what, () => this.transport.get({ path: pathOf(r, namespace, name), what }));
    if (found) this.add(r.collection as Exclude<CollectionName, 'events'>, [found]);
    return found as T | undefined;
  }

  private async listOf<T extends Meta>(
    r: Resource,
    namespace: string | undefined,
    what: string,
    query: Record<string, string> = {},
    keep?: (item: T) => boolean,
    cut: ListCut<T> = {},
    onPage?: (items: readonly T[]) => void,
  ): Promise<T[] | undefined> {
    const items = await this.guarded(r, 'list', namespace, what, () =>
      this.transport.list<T>(
        { path: pathOf(r, namespace), query, what, ...(cut.decodeProtobuf ? { decodeProtobuf: cut.decodeProtobuf } : {}) },
        {
          ...(keep ? { keep } : {}),
          ...(cut.reduce ? { reduce: cut.reduce } : {}),
          ...(cut.dropArrays ? { dropArrays: cut.dropArrays } : {}),
          onPage: (count, items) => {
            if (count >= 500) this.progress(`${what} (${count} so far)`);
            onPage?.(items);
          },
        },
      ),
    );
    if (items) this.add(r.collection as Exclude<CollectionName, 'events'>, items);
    return items;
  }

  /** GET each named object when few, else one LIST keeping the named ones. */
  private async named(r: Resource, refs: { namespace?: string; name: string }[], what: string): Promise<void> {
    const wanted = refs.filter((ref) => !this.find(r.collection as Exclude<CollectionName, 'events'>, ref.namespace, ref.name));
    if (wanted.length === 0) return;
    if (wanted.length <= this.perObjectReadsUpTo) {
      await Promise.all(wanted.map((ref) => this.getOne(r, ref.namespace, ref.name, `${what}: ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`)));
      return;
    }
    const keys = new Set(wanted.map((ref) => `${ref.namespace ?? ''}/${ref.name}`));
    const namespaces = new Set(wanted.map((ref) => ref.namespace));
    const only = namespaces.size === 1 ? [...namespaces][0] : undefined;
    await this.listOf<Meta>(r, only, what, {}, (o) => keys.has(`${r.namespaced ? namespaceOf(o) : ''}/${o.metadata?.name ?? ''}`));
  }

  /** Reads events (in `namespace`, or everywhere); false when the read was refused. */
  private async events(namespace: string | undefined, fieldSelector: string, what: string, limit?: number): Promise<boolean> {
    const key = `${namespace ?? '*'}\u0000${fieldSelector}`;
    if (this.eventQueries.has(key)) return true;
    this.eventQueries.add(key);
    const r = resources.events;
    const seen = this.seen.get('events') ?? new Set<string>();
    this.seen.set('events', seen);
    const absorb = (items: Meta[]) => {
      for (const item of items) {
        const id = objectKey(item);
        if (seen.has(id)) continue;
        seen.add(id);
        try {
          this.objects.events.push(toClusterEvent(item as Record<string, unknown>, what));
        } catch {
          // An event without involvedObject says nothing about anything.
        }
      }
    };
    if (limit !== undefined) {
      const page = await this.guarded(r, 'list', namespace, what, () => this.transport.get({ path: pathOf(r, namespace), query: { fieldSelector, limit }, what }));
      absorb((page as { items?: Meta[] } | undefined)?.items ?? []);
      return page !== undefined;
    }
    const items = await this.guarded(r, 'list', namespace, what, () => this.transport.list<Meta>({ path: pathOf(r, namespace), query: { fieldSelector }, what }));
    absorb(items ?? []);
    return items !== undefined;
  }

  private eventsOf(namespace: string, kind: string, name: string): Promise<boolean> {
    return this.events(namespace, `involvedObject.kind=${escapeField(kind)},involvedObject.name=${escapeField(name)}`, `reading events of ${kindWord(kind)} ${namespace}/${name}`);
  }

  // --- stage 1: the target ---

  private async podNotFound(ns: string, name: string): Promise<void> {
    // Maybe never admitted: a controller's FailedCreate event names it. Names nearby help a typo.
    this.progress(`pod ${ns}/${name} not found; reading FailedCreate events and pod names`);
    await Promise.all([
      this.events(ns, 'reason=FailedCreate', `reading FailedCreate events in namespace ${ns}`),
      this.podNames(ns),
    ]);
    await this.admissionInputs(ns, name);
  }

  /**
   * Never admitted: the owner whose FailedCreate events say so (its pod template is what each
   * pod asks) and the namespace's quotas and LimitRanges, for the refusal's arithmetic.
   */
  private async admissionInputs(ns: string, queryText: string): Promise<void> {
    const found = resolve(this.snapshot(), { namespace: ns, name: queryText });
    if (found.found !== 'admissionRejected') return;
    const r = ownerResource(found.owner.kind);
    this.progress(`reading what the admission refusal counts: ${kindWord(found.owner.kind)} ${ns}/${found.owner.name}, quotas and limit ranges`);
    await Promise.all([
      r && !this.find(r.collection as Exclude<CollectionName, 'events'>, ns, found.owner.name) ? this.getOne(r, ns, found.owner.name, `reading ${kindWord(found.owner.kind)} ${ns}/${found.owner.name}`) : undefined,
      this.listOf(resources.limitRanges, ns, `listing limit ranges in namespace ${ns}`),
      this.listOf(resources.resourceQuotas, ns, `listing resource quotas in namespace ${ns}`),
    ]);
  }

  /** Names only (metadata-only lists), for the engine's suggestions. */
  private async podNames(ns: string): Promise<void> {
    const r = resources.pods;
    const what = `listing pod names in namespace ${ns}`;
    const items = await this.guarded(r, 'list', ns, what, () => this.transport.list<Meta>({ path: pathOf(r, ns), what, accept: partialMetadata }));
    const pods: V1Pod[] = (items ?? []).map((item) => ({
      metadata: { name: item.metadata?.name ?? '', namespace: item.metadata?.namespace ?? ns, ...(item.metadata?.uid ? { uid: item.metadata.uid } : {}) },
    }));
    this.add('pods', pods);
  }

  private async podsBySelector(ns: string, selector: V1LabelSelector | undefined, what: string): Promise<void> {
    const labelSelector = formatLabelSelector(selector);
    if (labelSelector === null) return;
    await this.listOf<V1Pod>(resources.pods, ns, what, { labelSelector });
  }

  private async fromOwner(kind: string, name: string, ns: string, queryText: string): Promise<V1Pod | undefined> {
    const r = ownerResource(kind);
    if (!r) return undefined;
    const what = `reading ${kindWord(kind)} ${ns}/${name}`;
    this.progress(what);
    const owner = await this.getTarget<Meta & { spec?: { selector?: V1LabelSelector } }>(r, ns, name, what);
    const ownerEvents = this.eventsOf(ns, kind, name);
    if (!owner) {
      await ownerEvents;
      // Gone, or never there: events of the same kind give the engine names to suggest.
      if (eventsAbout(this.snapshot(), { kind, namespace: ns, name }).length === 0) {
        await this.events(ns, `involvedObject.kind=${escapeField(kind)}`, `reading events of ${kindWord(kind)}s in namespace ${ns}`, 500);
      }
      return undefined;
    }
    this.add(r.collection as Exclude<CollectionName, 'events'>, [owner]);
    const selector = owner.spec?.selector;
    const podsWhat = `listing the pods of ${kindWord(kind)} ${ns}/${name}`;
    const below: Promise<unknown>[] = [ownerEvents];
    if (kind === 'Deployment') {
      const labelSelector = formatLabelSelector(selector);
      if (labelSelector !== null) {
        below.push(this.listOf<Meta>(resources.replicaSets, ns, `listing the replica sets of deployment ${ns}/${name}`, { labelSelector }, (rs) => ownedBy(rs, owner)));
      }
      below.push(this.podsBySelector(ns, selector, podsWhat));
    } else if (kind === 'CronJob') {
      below.push(
        this.listOf<Meta & { spec?: { selector?: V1LabelSelector } }>(resources.jobs, ns, `listing the jobs of cronjob ${ns}/${name}`, {}, (job) => ownedBy(job, owner)).then((jobs) =>
          Promise.all((jobs ?? []).map((job) => this.podsBySelector(ns, job.spec?.selector, `listing the pods of job ${ns}/${job.metadata?.name ?? ''}`))),
        ),
      );
    } else {
      below.push(this.podsBySelector(ns, selector, podsWhat));
    }
    await Promise.all(below);
    const first = resolve(this.snapshot(), { namespace: ns, name: queryText });
    if (first.found === 'pod' && isPending(first.pod)) return first.pod;
    // No pending pod: the FailedCreate events of the owners below may explain why.
    const children = [
      ...this.objects.replicaSets.filter((rs) => ownedBy(rs, owner)).map((rs) => ({ kind: 'ReplicaSet', name: rs.metadata?.name ?? '' })),
      ...this.objects.jobs.filter((job) => ownedBy(job, owner)).map((job) => ({ kind: 'Job', name: job.metadata?.name ?? '' })),
    ];
    await Promise.all(children.map((child) => this.eventsOf(ns, child.kind, child.name)));
    const second = resolve(this.snapshot(), { namespace: ns, name: queryText });
    if (second.found === 'pod') return second.pod;
    await this.admissionInputs(ns, queryText);
    return undefined;
  }

  // --- stage 2: around the pod ---

  private async aroundPod(pod: V1Pod): Promise<void> {
    const ns = namespaceOf(pod);
    const nodeName = pod.spec?.nodeName;
    const claims = claimNamesOf(pod);
    // What the rules read for the pod, asked of the engine on the pod alone.
    const first = planReads(rules, pod, this.snapshot());
    const { pending, volumes, devices } = first;
    this.progress(pending ? `reading events, owners, ${nodeName ? `node ${nodeName}` : 'nodes'} and policies` : 'reading events and owners');
    await Promise.all([
      this.podEvents(pod),
      this.ownerChain(pod),
      pending ? (nodeName ? this.getOne<V1Node>(resources.nodes, undefined, nodeName, `reading node ${nodeName}`) : this.listNodes(volumes || devices ? undefined : pod)) : undefined,
      pending ? this.policies(ns) : undefined,
      pending && volumes ? this.podVolumes(pod, claims) : undefined,
      pending && devices ? this.podDevices() : undefined,
      pending && first.gang ? this.gang(pod) : undefined,
      // The release whose rules are replayed, known before the plan asks the rules (podsThatMatter).
      pending ? this.clusterVersion() : undefined,
    ]);
    if (!pending) return;
    // With its events read, the stage the pod is in and what it asks for beside the nodes.
    const plan = planReads(rules, pod, this.snapshot());
    if (!plan.judged) return;
    await Promise.all([
      plan.autoscalerStatus ? this.autoscalerStatus() : undefined,
      nodeName ? this.listNodes() : undefined,
      plan.schedulerActivity ? this.schedulerActivity(pod) : undefined,
      plan.karpenter ? this.karpenterObjects() : undefined,
    ]);
    const [podsRead] = await Promise.all([this.podsThatMatter(pod), plan.namespaces ? this.namespaces() : undefined]);
    await this.ownNamespace(pod);
    if (plan.nominatedNode) await this.nominatedNode(pod, podsRead);
  }

  /**
   * Pending pods nominated to a node, of priority at least the pod's: the scheduler adds them to
   * their node before it filters this pod there (engine/nominated.ts). One LIST by field selector,
   * whose answer holds only such pods (few: those waiting for their victims to go); refused at
   * cluster scope, the pod's own namespace, and the gap says what is missing.
   */
  private async nominatedPods(pod: V1Pod): Promise<void> {
    const priority = priorityOf(pod);
    const keep = (p: V1Pod) => priorityOf(p) >= priority;
    const query = { fieldSelector: nominatedPodsSelector };
    const refused = this.gaps.some((g) => g.collection === 'pods' && g.cause === 'forbidden' && g.permission.scope === 'cluster');
    // Kept whole (few pods): their PodScheduled condition dates the nomination.
    if (!refused && (await this.listOf<V1Pod>(resources.pods, undefined, 'listing pods nominated to a node', query, keep))) return;
    const ns = namespaceOf(pod);
    await this.listOf<V1Pod>(resources.pods, ns, `listing pods nominated to a node in namespace ${ns}`, query, keep);
  }

  /** Every namespace's name and labels: the pod's own affinity terms select namespaces by label. */
  private async namespaces(): Promise<void> {
    this.progress('listing namespaces (a pod affinity term selects them by label)');
    await this.listOf<NamespaceRecord>(resources.namespaces, undefined, 'listing namespaces', {}, undefined, namespaceCut);
  }

  /**
   * The pod's own namespace, when a pod already read has required anti-affinity whose
   * namespaceSelector reads namespace labels: the scheduler matches that term against this
   * namespace's labels. One GET; refused, the nodes it would decide are not checked.
   */
  private async ownNamespace(pod: V1Pod): Promise<void> {
    const ns = namespaceOf(pod);
    if (this.find<NamespaceRecord>('namespaces', undefined, ns)) return;
    if (!this.objects.pods.some((p) => p !== pod && hasRequiredAntiAffinity(p) && selectsNamespacesByLabel(p))) return;
    const found = await this.guarded(resources.namespaces, 'get', undefined, `reading namespace ${ns}`, () => this.transport.get({ path: pathOf(resources.namespaces, undefined, ns), what: `reading namespace ${ns}` }));
    if (found) this.add('namespaces', [namespaceRecord(found as NamespaceRecord)]);
  }

  /**
   * PreemptionPending: the nominated node's pods (the victims and those preemption cannot
   * touch), and the PodDisruptionBudgets of the namespaces of its lower-priority pods.
   */
  private async nominatedNode(pod: V1Pod, podsRead: Set<string> | 'all'): Promise<void> {
    const nominated = pod.status?.nominatedNodeName;
    if (!nominated) return;
    if (podsRead !== 'all' && !podsRead.has(nominated)) await this.podsOnNode(nominated);
    const priority = priorityOf(pod);
    const lower = this.objects.pods.filter((p) => p.spec?.nodeName === nominated && priorityOf(p) < priority && !p.metadata?.deletionTimestamp);
    const namespaces = [...new Set(lower.map(namespaceOf))].sort();
    if (namespaces.length === 0) return;
    this.progress(`reading the disruption budgets of ${namespaces.length} namespace${namespaces.length === 1 ? '' : 's'} with pods on ${nominated}`);
    await Promise.all(namespaces.map((n) => this.listOf(resources.podDisruptionBudgets, n, `listing pod disruption budgets in namespace ${n}`)));
  }

  /** The cluster's version (engine/release.ts), once; unknown when `/version` cannot be read. */
  private async clusterVersion(): Promise<void> {
    this.cluster ??= await readClusterVersion(this.transport);
  }

  private podEvents(pod: V1Pod): Promise<boolean> {
    const ns = namespaceOf(pod);
    const name = pod.metadata?.name ?? '';
    const uid = pod.metadata?.uid;
    const what = `reading events of pod ${ns}/${name}`;
    return uid ? this.events(ns, `involvedObject.uid=${escapeField(uid)}`, what) : this.eventsOf(ns, 'Pod', name);
  }

  private async ownerChain(pod: V1Pod): Promise<void> {
    const ns = namespaceOf(pod);
    const eventReads: Promise<boolean>[] = [];
    let metadata = pod.metadata;
    for (let depth = 0; depth < 5; depth++) {
      const ref = controllerOf(metadata);
      if (!ref) break;
      eventReads.push(this.eventsOf(ns, ref.kind, ref.name));
      const r = ownerResource(ref.kind);
      if (!r) break;
      const collection = r.collection as Exclude<CollectionName, 'events'>;
      const owner = this.find<Meta>(collection, ns, ref.name) ?? (await this.getOne<Meta>(r, ns, ref.name, `reading ${kindWord(ref.kind)} ${ns}/${ref.name}`));
      if (!owner) break;
      metadata = owner.metadata;
    }
    await Promise.all(eventReads);
  }

  /**
   * Every node. With `early`, the pod to place: when the first page of nodes alone holds more
   * candidates than are read node by node, the plan (podsThatMatter) will read every pod, so
   * that read starts now, while the other pages of nodes arrive. Candidates only grow as nodes
   * are added, so this is never a read the plan would not make; it is not tried for a pod whose
   * volumes or devices narrow the nodes (what narrows them is read alongside the nodes).
   */
  private listNodes(early?: V1Pod): Promise<void> {
    let looked = false;
    const onPage = (nodes: readonly NodeRecord[]) => {
      if (looked || !early) return;
      looked = true;
      if (candidateNodes(rules, early, nodes, this.snapshot()).names.length > this.perObjectReadsUpTo) this.startEveryPod();
    };
    this.nodesListed ??= this.listOf<NodeRecord>(resources.nodes, undefined, 'listing nodes', {}, undefined, nodeListCut(), onPage).then(() => undefined);
    return this.nodesListed;
  }

  private async policies(ns: string): Promise<void> {
    await Promise.all([
      this.listOf(resources.limitRanges, ns, `listing limit ranges in namespace ${ns}`),
      this.listOf(resources.resourceQuotas, ns, `listing resource quotas in namespace ${ns}`),
      this.listOf(resources.priorityClasses, undefined, 'listing priority classes'),
    ]);
  }

  /**
   * What the structured allocator reads: every ResourceClaim in the cluster (the devices other
   * claims hold are taken), the DeviceClasses, the ResourceSlices and the DeviceTaintRules that
   * taint their devices. A refusal is a gap.
   */
  private async podDevices(): Promise<void> {
    await Promise.all([
      this.listOf(resources.resourceClaims, undefined, 'listing resource claims'),
      this.listOf(resources.deviceClasses, undefined, 'listing device classes'),
      this.listOf(resources.resourceSlices, undefined, 'listing resource slices'),
      this.listOf(resources.deviceTaintRules, undefined, 'listing device taint rules'),
    ]);
  }

  /**
   * A gang's PodGroup and its pods (engine/story/gang.ts): the namespace's PodGroups (a 404:
   * the cluster does not serve them) and, of its pods, those naming the same group.
   */
  private async gang(pod: V1Pod): Promise<void> {
    const ns = namespaceOf(pod);
    const group = podGroupOf(pod);
    await Promise.all([
      this.listOf(resources.podGroups, ns, `listing pod groups in namespace ${ns}`),
      this.listOf<V1Pod>(resources.pods, ns, `listing the pods of pod group ${group ?? ''}`, { fieldSelector: nonTerminal }, (p) => podGroupOf(p) === group),
    ]);
  }

  private async podVolumes(pod: V1Pod, claims: string[]): Promise<void> {
    const ns = namespaceOf(pod);
    await Promise.all([
      this.listOf(resources.storageClasses, undefined, 'listing storage classes'),
      this.listOf(resources.csiNodes, undefined, 'listing CSI nodes'),
      this.named(resources.persistentVolumeClaims, claims.map((name) => ({ namespace: ns, name })), 'reading the claims of the pod'),
    ]);
    const found = claims.flatMap((name) => this.find<V1PersistentVolumeClaim>('persistentVolumeClaims', ns, name) ?? []);
    const bound = found.flatMap((claim) => (claim.spec?.volumeName ? [claim.spec.volumeName] : []));
    const waiting = found.filter((claim) => !claim.spec?.volumeName);
    // Who provisions an unbound claim, and what it said (ExternalProvisioning, ProvisioningFailed).
    await Promise.all(waiting.map((claim) => this.eventsOf(ns, 'PersistentVolumeClaim', claim.metadata?.name ?? '')));
    if (waiting.length === 0) {
      await this.named(resources.persistentVolumes, bound.map((name) => ({ name })), 'reading the volumes of the claims');
      return;
    }
    // A claim waiting for a volume may match any available PV of its class.
    const classes = new Set(waiting.map(claimClassName));
    const names = new Set(bound);
    await this.listOf<V1PersistentVolume>(resources.persistentVolumes, undefined, 'listing persistent volumes', {}, (v) => classes.has(volumeClassName(v)) || names.has(v.metadata?.name ?? ''));
  }

  // --- stage 3: only what the remaining questions need ---

  /**
   * cluster-autoscaler spoke about the pod: its status ConfigMap, with one GET of that object
   * (a 404 is no status, not a gap; a 403 is a gap). Only its `status` key is kept.
   */
  private async autoscalerStatus(): Promise<void> {
    const r = resources.clusterAutoscalerStatus;
    if (!r.only || this.objects.clusterAutoscalerStatus.length > 0) return;
    const what = `reading cluster-autoscaler's status ${r.only.namespace}/${r.only.name}`;
    this.progress(what);
    const found = await this.guarded(r, 'get', r.only.namespace, what, () => this.transport.get({ path: pathOf(r, r.only?.namespace, r.only?.name), what }));
    if (found) this.add('clusterAutoscalerStatus', [statusOnly(found as V1ConfigMap)]);
  }

  /**
   * Karpenter wrote about the pod: its NodePools (what a new node would carry, limits, readiness)
   * and NodeClaims (the one the pod waits for). Cluster-scoped, paged. A 404 means the group is
   * not served (Karpenter is not installed): nothing to read and nothing to say.
   */
  private async karpenterObjects(): Promise<void> {
    this.progress('reading Karpenter NodePools and NodeClaims');
    await Promise.all(
      [resources.nodePools, resources.nodeClaims].map(async (r) => {
        const what = `listing ${rbacName(r)}`;
        const items = await this.guarded(r, 'list', undefined, what, () => this.transport.list<Meta>({ path: pathOf(r), what }), true);
        if (items) this.add(r.collection as Exclude<CollectionName, 'events'>, items);
      }),
    );
  }

  /** NoScheduler: has the pod's scheduler written anything anywhere? One event is enough. */
  private async schedulerActivity(pod: V1Pod): Promise<void> {
    const scheduler = pod.spec?.schedulerName || 'default-scheduler';
    const fieldSelector = `reportingComponent=${escapeField(scheduler)},reason=Scheduled`;
    const what = `looking for events written by ${scheduler}`;
    if (!(await this.events(undefined, fieldSelector, what, 1))) await this.events(namespaceOf(pod), fieldSelector, what, 1);
  }

  /** The nodes whose pods were read one by one, or `all` when every non-terminal pod was listed. */
  private async podsThatMatter(pod: V1Pod): Promise<Set<string> | 'all'> {
    const ns = namespaceOf(pod);
    const { names } = candidateNodes(rules, pod, this.objects.nodes, this.snapshot());
    this.podsReadOn = names;
    const reads: Promise<unknown>[] = [];
    const exclusive = claimNamesOf(pod).filter((name) => this.find<V1PersistentVolumeClaim>('persistentVolumeClaims', ns, name)?.spec?.accessModes?.includes('ReadWriteOncePod'));
    if (exclusive.length > 0) {
      const uses = (p: V1Pod) => podClaimRefs(p).some((ref) => exclusive.includes(ref.claim));
      reads.push(this.listOf<V1Pod>(resources.pods, ns, `listing pods in namespace ${ns} that use its ReadWriteOncePod claims`, { fieldSelector: `spec.nodeName!=,${nonTerminal}` }, uses, this.neighbours));
    }
    if (names.length === 0) {
      this.progress(this.objects.nodes.length === 0 ? 'no node could be read: no pod list needed' : 'every node fails on node objects alone: no pod list needed');
      await Promise.all(reads);
      return new Set();
    }
    const selections = podSelections(pod);
    const everything = selections.some((s) => s.namespace === undefined && s.labelSelector === '');
    if (names.length <= this.perObjectReadsUpTo && !everything) {
      this.progress(`reading the pods of ${names.length} candidate node${names.length === 1 ? '' : 's'}`);
      reads.push(...selections.map((s) => this.selectedPods(s)));
      // The first read alone: a 403 on pods at cluster scope stops the others before they are sent.
      const [first, ...rest] = names;
      if (first !== undefined) reads.push(this.podsOnNode(first).then(() => Promise.all(rest.map((node) => this.podsOnNode(node)))));
    } else {
      this.progress(`listing every non-terminal pod (${names.length} candidate nodes)`);
      const candidates = new Set(names);
      // Most nodes are candidates: the pods of the others cost little more to keep, and with
      // them a fix replayed on a node that node objects ruled out (tolerate its taint, add its
      // label) needs no second read and no second diagnosis. Few candidates: keep only theirs.
      const keepAll = names.length * 2 >= this.objects.nodes.length;
      const keep = keepAll ? () => true : (p: V1Pod) => candidates.has(p.spec?.nodeName ?? '') || hasRequiredAntiAffinity(p) || inSelection(p, selections);
      reads.push(this.everyPod(keep).then(() => {
        // Every node's pods are known, but for the claims of pods on nodes that are not
        // candidates (neighbourVolumes reads those of candidates): a pod with attachable
        // volumes still has a fix there confirmed by the follow-up read.
        if (keepAll && !hasAttachableVolumes(pod)) this.podsReadOn = undefined;
      }));
    }
    await Promise.all(reads);
    // Nominated pods only add to a node's failures: read where some node is still a candidate,
    // once the bound pods' read has shown whether pods can be listed at cluster scope.
    await Promise.all([this.neighbourVolumes(pod, names), this.nominatedPods(pod)]);
    return names.length <= this.perObjectReadsUpTo && !everything ? new Set(names) : 'all';
  }

  /**
   * Every non-terminal bound pod that `keep` keeps. One paged LIST per namespace, a few
   * namespaces at a time, when the namespaces can be listed: the apiserver then encodes several
   * pages at once while this process parses (BENCHMARKS.md, "Reading every pod"). Each namespace
   * is read at its own latest resourceVersion, so the result is not one snapshot of the cluster;
   * nor is the scheduler's own cache, which its informers fill event by event, and a pod that
   * appears or goes mid-read is as likely to be missed by the scheduler's last attempt. (Pinning
   * every namespace to the namespace list's resourceVersion, resourceVersionMatch=Exact, measured
   * no faster and adds a 410 path.) A namespace created after the namespace list is not read.
   * When the namespaces cannot be listed (the documented role grants it, narrower ones may not),
   * or any namespace's read is refused or fails, one paged LIST of every pod does it instead,
   * with the same gaps and errors as before: nothing is lost but time.
   */
  private async everyPod(keep: (pod: V1Pod) => boolean): Promise<void> {
    const started = this.everyPodStarted;
    const read = started ? (await started)?.filter(keep) : await this.byNamespace(keep);
    if (read) {
      this.add('pods', read);
      return;
    }
    await this.listOf<V1Pod>(resources.pods, undefined, 'listing pods', everyPodQuery, keep, this.neighbours);
  }

  /** Starts reading every pod, each namespace's kept whole, before the plan asks for it (listNodes). */
  private startEveryPod(): void {
    if (this.everyPodStarted) return;
    this.progress('listing every non-terminal pod');
    this.everyPodStarted = this.byNamespace(() => true);
    // Its failure is seen where it is awaited (everyPod); not unhandled if the read ends before.
    this.everyPodStarted.catch(() => undefined);
  }

  /**
   * Every non-terminal bound pod that `keep` keeps, read one namespace at a time, a few at once;
   * undefined when the namespaces cannot be listed or a namespace's read is refused or fails.
   */
  private async byNamespace(keep: (pod: V1Pod) => boolean): Promise<V1Pod[] | undefined> {
    const what = 'listing pods';
    const query = everyPodQuery;
    const namespaces = await this.namespaceNames();
    if (namespaces && namespaces.length > 1) {
      const r = resources.pods;
      const read: V1Pod[] = [];
      const todo = [...namespaces];
      let failed = false;
      const worker = async (): Promise<void> => {
        for (let ns = todo.shift(); ns !== undefined && !failed; ns = todo.shift()) {
          try {
            const { decodeProtobuf, reduce } = this.neighbours;
            const request = { path: pathOf(r, ns), query, what: `listing pods in namespace ${ns}`, ...(decodeProtobuf ? { decodeProtobuf } : {}) };
            const pods = await this.transport.list<V1Pod>(request, { keep, ...(reduce ? { reduce } : {}), prefetch: false });
            for (const p of pods) read.push(p); // not push(...pods): a namespace may hold more pods than a call takes arguments
          } catch (error) {
            if (!(error instanceof ApiStatusError)) throw error;
            failed = true;
          }
          if (read.length >= 500) this.progress(`${what} (${read.length} so far)`);
        }
      };
      await Promise.all(Array.from({ length: Math.min(namespaceReadsAtOnce, namespaces.length) }, worker));
      if (!failed) return read;
    }
    return undefined;
  }

  /** The names of every namespace (names only), or undefined when they cannot be listed. */
  private async namespaceNames(): Promise<string[] | undefined> {
    try {
      const items = await this.transport.list<Meta>({ path: '/api/v1/namespaces', what: 'listing namespaces', accept: partialMetadata });
      return items.flatMap((item) => (item.metadata?.name ? [item.metadata.name] : []));
    } catch (error) {
      if (error instanceof ApiStatusError) return undefined;
      throw error;
    }
  }

  private async podsOnNode(node: string): Promise<void> {
    if (this.podsForbiddenClusterWide) return;
    const r = resources.pods;
    const what = `listing pods on node ${node}`;
    await this.listOf<V1Pod>(r, undefined, what, { fieldSelector: `spec.nodeName=${escapeField(node)},${nonTerminal}` }, undefined, this.neighbours);
    if (this.gaps.some((g) => g.collection === 'pods' && g.cause === 'forbidden' && g.permission.scope === 'cluster')) this.podsForbiddenClusterWide = true;
  }

  private async selectedPods(selection: PodSelection): Promise<void> {
    const where = selection.namespace === undefined ? 'all namespaces' : `namespace ${selection.namespace}`;
    await this.listOf<V1Pod>(resources.pods, selection.namespace, `listing pods matching "${selection.labelSelector}" in ${where}`, {
      labelSelector: selection.labelSelector,
      fieldSelector: `spec.nodeName!=,${nonTerminal}`,
    }, undefined, this.neighbours);
  }

  /** NodeVolumeLimits counts the volumes of pods already on a node: their claims and PVs. */
  private async neighbourVolumes(pod: V1Pod, nodes: string[]): Promise<void> {
    if (!hasAttachableVolumes(pod)) return;
    const limited = new Set(this.objects.csiNodes.filter((c) => (c.spec?.drivers ?? []).some((d) => d.allocatable?.count != null)).map((c) => c.metadata?.name ?? ''));
    const relevant = new Set(nodes.filter((n) => limited.has(n)));
    if (relevant.size === 0) return;
    const refs = this.objects.pods
      .filter((p) => relevant.has(p.spec?.nodeName ?? ''))
      .flatMap((p) => podClaimRefs(p).map((ref) => ({ namespace: namespaceOf(p), name: ref.claim })));
    if (refs.length === 0) return;
    this.progress(`reading the claims of pods on ${relevant.size} node${relevant.size === 1 ? '' : 's'} with volume limits`);
    await this.named(resources.persistentVolumeClaims, refs, 'reading claims of pods on candidate nodes');
    const volumes = refs.flatMap((ref) => this.find<V1PersistentVolumeClaim>('persistentVolumeClaims', ref.namespace, ref.name)?.spec?.volumeName ?? []);
    await this.named(resources.persistentVolumes, [...new Set(volumes)].map((name) => ({ name })), 'reading volumes of pods on candidate nodes');
  }
}

/**
 * Reads a snapshot for `query` from the cluster `config` names. `progress` gets short lines
 * about what is being read. GET only; see the header for what is read when.
 */
export async function readLive(config: LiveConfig, query: LiveQuery, progress?: (line: string) => void, options: ReadLiveOptions = {}): Promise<Snapshot> {
  const transport = new Transport(config, options);
  options.onTransport?.(transport);
  const say = progress ?? (() => undefined);
  const reader = new LiveReader(transport, config, say, options.perObjectReadsUpTo ?? perObjectReadsDefault);
  try {
    await reader.read(query);
    say(`read ${transport.sent.length} request${transport.sent.length === 1 ? '' : 's'}`);
    return reader.snapshot();
  } finally {
    transport.close();
  }
}

/** Adds to `earlier` (a live read of the same cluster) the pods of `nodes`; GET only. */
async function readPodsOn(config: LiveConfig, earlier: Snapshot, target: V1Pod, nodes: readonly string[], progress?: (line: string) => void, options: ReadLiveOptions = {}): Promise<Snapshot> {
  const transport = new Transport(config, options);
  options.onTransport?.(transport);
  const reader = new LiveReader(transport, config, progress ?? (() => undefined), options.perObjectReadsUpTo ?? perObjectReadsDefault);
  try {
    reader.resume(earlier);
    await reader.podsOn(target, nodes);
    return reader.snapshot();
  } finally {
    transport.close();
  }
}

/** The cluster `config` names as a source; the namespace is the context's unless -n says otherwise. */
export function liveSource(config: LiveConfig, options: ReadLiveOptions = {}): Source {
  return {
    namespace: config.namespace,
    read: (query, progress) => readLive(config, query, progress, options),
    readTriage: (scope, progress) => readTriageLive(config, scope, progress, options),
    watcher: (target) => watcher(config, target),
    readPodsOn: (earlier, target, nodes, progress) => readPodsOn(config, earlier, target, nodes, progress, options),
    serverVersion: async () => {
      const transport = new Transport(config, options);
      options.onTransport?.(transport);
      try {
        return (await readClusterVersion(transport)).version;
      } finally {
        transport.close();
      }
    },
  };
}
