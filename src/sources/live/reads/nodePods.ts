// The pods on nodes, the costliest read: only when the stage judges nodes, and only those that
// can change a verdict. The plan (engine/readPlan.ts) names the candidate nodes (those node
// objects alone do not rule out), the selectors whose pods count wherever they run, the
// ReadWriteOncePod claims whose users block the pod, and the nodes whose volumes are counted.
// Few candidates: one fieldSelector read per node; many: one paged read of every non-terminal
// pod, a few namespaces at once. A pod whose every node fails on node objects alone costs no
// pod read at all. Also the pods nominated to a node (they hold room there), for a pending
// preemption the nominated node's pods, and the budgets of the pods the pod may preempt.
import type { V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import { planReads, podClaimRefs, priorityOf, rules, type ReadPlan } from '../../../engine/readPlan.js';
import type { NodeRecord } from '../../../snapshot/types.js';
import { neighbourListCut, nodeListCut } from '../cuts.js';
import { ApiStatusError } from '../errors.js';
import { namespaceOf, type LiveReader, type Meta } from '../reader.js';
import { escapeField, namesOnly, nominatedPodsSelector, nonTerminal, pathOf, resources } from '../resources.js';

// Namespaces whose pods are read at once when every pod is read (chosen by measurement,
// BENCHMARKS.md). Each reads its pages one after another: with four streams the
// apiserver has work enough, and asking for the next page early only kept more pages in memory.
const namespaceReadsAtOnce = 4;
/** Every pod bound to a node and not terminal: the pods the filters count. */
const everyPodQuery = { fieldSelector: `spec.nodeName!=,${nonTerminal}` };

type Selection = ReadPlan['selections'][number];

/** Up to this many namespaces, their budgets are listed one namespace each (what a namespace-only role allows). */
const budgetNamespacesOneByOne = 8;

/** The namespaces of the bound pods ranking below `pod`, when it may preempt (its policy is not Never). */
function lowerPriorityNamespaces(pod: V1Pod, pods: readonly V1Pod[]): Set<string> {
  const namespaces = new Set<string>();
  if (pod.spec?.preemptionPolicy === 'Never') return namespaces;
  const priority = priorityOf(pod);
  for (const p of pods) if (p.spec?.nodeName && priorityOf(p) < priority) namespaces.add(namespaceOf(p));
  return namespaces;
}

export class NodePods {
  private nodesListed: Promise<void> | undefined;
  private forbiddenClusterWide = false;
  /** The read of every pod, when listNodes started it before the plan asked for it. */
  private everyPodStarted: Promise<V1Pod[] | undefined> | undefined;
  /** How pods on nodes are read; one per read, so that strings repeated across its pages are kept once. */
  private readonly neighbours = neighbourListCut();

  constructor(private readonly reader: LiveReader) {}

  /**
   * Every node. With `early`, the pod to place: when the first page of nodes alone holds more
   * candidates than are read node by node, the plan will read every pod, so that read starts
   * now, while the other pages of nodes arrive. Candidates only grow as nodes are added, so this
   * is never a read the plan would not make; it is not tried for a pod whose volumes or devices
   * narrow the nodes (what narrows them is read alongside the nodes).
   */
  listNodes(early?: V1Pod): Promise<void> {
    const reader = this.reader;
    let looked = false;
    const onPage = (nodes: readonly NodeRecord[]) => {
      if (looked || !early) return;
      looked = true;
      const read = reader.snapshot();
      const plan = planReads(rules, early, { ...read, objects: { ...read.objects, nodes: [...nodes] } });
      if (plan.candidates().names.length > reader.perObjectReadsUpTo) this.startEveryPod();
    };
    this.nodesListed ??= reader.list<NodeRecord>(resources.nodes, undefined, 'listing nodes', { cut: nodeListCut(), onPage }).then(() => undefined);
    return this.nodesListed;
  }

  /**
   * The pods that can change a verdict, as `plan` (made once the nodes are read) names them.
   * The nodes whose pods were read one by one, or `all` when every non-terminal pod was listed.
   */
  async podsThatMatter(pod: V1Pod, plan: ReadPlan): Promise<Set<string> | 'all'> {
    const reader = this.reader;
    const ns = namespaceOf(pod);
    const { names } = plan.candidates();
    reader.podsReadOn = names;
    const reads: Promise<unknown>[] = [];
    if (plan.exclusiveClaims.length > 0) {
      const uses = (p: V1Pod) => podClaimRefs(p).some((ref) => plan.exclusiveClaims.includes(ref.claim));
      const what = `listing pods in namespace ${ns} that use its ReadWriteOncePod claims`;
      reads.push(reader.list<V1Pod>(resources.pods, ns, what, { query: everyPodQuery, keep: uses, cut: this.neighbours }));
    }
    if (names.length === 0) {
      reader.progress(reader.objects.nodes.length === 0 ? 'no node could be read: no pod list needed' : 'every node fails on node objects alone: no pod list needed');
      await Promise.all(reads);
      return new Set();
    }
    const everything = plan.selections.some((s) => s.namespace === undefined && s.labelSelector === '');
    const oneByOne = names.length <= reader.perObjectReadsUpTo && !everything;
    if (oneByOne) {
      reader.progress(`reading the pods of ${names.length} candidate node${names.length === 1 ? '' : 's'}`);
      reads.push(...plan.selections.map((s) => this.selectedPods(s)));
      // The first read alone: a 403 on pods at cluster scope stops the others before they are sent.
      const [first, ...rest] = names;
      if (first !== undefined) reads.push(this.podsOnNode(first).then(() => Promise.all(rest.map((node) => this.podsOnNode(node)))));
    } else {
      reader.progress(`listing every non-terminal pod (${names.length} candidate nodes)`);
      const candidates = new Set(names);
      // Most nodes are candidates: the pods of the others cost little more to keep, and with
      // them a fix replayed on a node that node objects ruled out (tolerate its taint, add its
      // label) needs no second read and no second diagnosis. Few candidates: keep only theirs.
      const keepAll = names.length * 2 >= reader.objects.nodes.length;
      const keep = keepAll ? () => true : (p: V1Pod) => candidates.has(p.spec?.nodeName ?? '') || plan.countedAnywhere(p);
      reads.push(
        this.everyPod(keep).then(() => {
          // Every node's pods are known, but for the claims of pods on nodes that are not
          // candidates (neighbourVolumes reads those of candidates): a pod with attachable
          // volumes still has a fix there confirmed by the follow-up read.
          if (keepAll && !plan.attachableVolumes) reader.podsReadOn = undefined;
        }),
      );
    }
    await Promise.all(reads);
    // Nominated pods only add to a node's failures: read where some node is still a candidate,
    // once the bound pods' read has shown whether pods can be listed at cluster scope.
    await Promise.all([this.neighbourVolumes(plan, names), this.nominatedPods(pod)]);
    return oneByOne ? new Set(names) : 'all';
  }

  /**
   * Every non-terminal pod bound to a node, as a single pod's read keeps them: a triage's read,
   * where any node may matter to one of the pending pods.
   */
  everyBoundPod(): Promise<void> {
    return this.everyPod(() => true);
  }

  /**
   * The pods of nodes the first read skipped (node objects ruled them out), so that a fix
   * replayed there (tolerate the taint, add the label) is judged against what runs on them.
   */
  async podsOn(target: V1Pod, nodes: readonly string[]): Promise<void> {
    const reader = this.reader;
    const todo = nodes.filter((n) => !(reader.podsReadOn ?? []).includes(n));
    if (todo.length === 0) return;
    reader.progress(`reading the pods of ${todo.length} more node${todo.length === 1 ? '' : 's'} to confirm a fix`);
    // The first read listed the budgets of the namespaces it had found lower-priority pods in.
    const listed = lowerPriorityNamespaces(target, reader.objects.pods);
    await Promise.all(todo.map((node) => this.podsOnNode(node)));
    // Room nominated pods hold on those nodes counts against the fix too (the first read skipped
    // it when node objects ruled out every node).
    await Promise.all([this.neighbourVolumes(planReads(rules, target, reader.snapshot()), todo), this.nominatedPods(target)]);
    reader.podsReadOn = [...(reader.podsReadOn ?? []), ...todo];
    await this.budgetsOfLowerPods(target, listed);
  }

  /** PreemptionPending: the nominated node's pods (the victims and those preemption cannot touch). */
  async nominatedNode(nominated: string, podsRead: Set<string> | 'all'): Promise<void> {
    if (podsRead !== 'all' && !podsRead.has(nominated)) await this.podsOnNode(nominated);
  }

  /**
   * The PodDisruptionBudgets of the namespaces whose bound pods, as read, rank below the pod,
   * when it may preempt: DefaultPreemption reprieves the victims a budget protects first, so a
   * preemption (a pending one's story, a fix that removes pods) names the scheduler's victims
   * only with them; a 403 is a gap, and the story and the fix say the victims may differ.
   * `listed`: namespaces whose budgets were read already. Many namespaces: one LIST of every
   * budget (small objects), each namespace's only if that is refused.
   */
  async budgetsOfLowerPods(pod: V1Pod, listed: ReadonlySet<string> = new Set()): Promise<void> {
    const reader = this.reader;
    const namespaces = [...lowerPriorityNamespaces(pod, reader.objects.pods)].filter((n) => !listed.has(n)).sort();
    if (namespaces.length === 0) return;
    reader.progress(`reading the disruption budgets of ${namespaces.length} namespace${namespaces.length === 1 ? '' : 's'} with pods of lower priority`);
    if (namespaces.length > budgetNamespacesOneByOne) {
      const wanted = new Set(namespaces);
      try {
        const every = await reader.transport.list<Meta>({ path: pathOf(resources.podDisruptionBudgets, undefined), what: 'listing pod disruption budgets' });
        reader.add('podDisruptionBudgets', every.filter((b) => wanted.has(namespaceOf(b))));
        return;
      } catch (error) {
        if (!(error instanceof ApiStatusError)) throw error;
      }
    }
    await Promise.all(namespaces.map((n) => reader.list(resources.podDisruptionBudgets, n, `listing pod disruption budgets in namespace ${n}`)));
  }

  /**
   * Pending pods nominated to a node, of priority at least the pod's: the scheduler adds them to
   * their node before it filters this pod there (engine/nominated.ts). One LIST by field selector,
   * whose answer holds only such pods (few: those waiting for their victims to go); refused at
   * cluster scope, the pod's own namespace, and the gap says what is missing. Kept whole: their
   * PodScheduled condition dates the nomination.
   */
  private async nominatedPods(pod: V1Pod): Promise<void> {
    const reader = this.reader;
    const priority = priorityOf(pod);
    const options = { query: { fieldSelector: nominatedPodsSelector }, keep: (p: V1Pod) => priorityOf(p) >= priority };
    if (!reader.podsRefusedClusterWide() && (await reader.list<V1Pod>(resources.pods, undefined, 'listing pods nominated to a node', options))) return;
    const ns = namespaceOf(pod);
    await reader.list<V1Pod>(resources.pods, ns, `listing pods nominated to a node in namespace ${ns}`, options);
  }

  /**
   * Every non-terminal bound pod that `keep` keeps. One paged LIST per namespace, a few
   * namespaces at a time, when the namespaces can be listed: the apiserver then encodes several
   * pages at once while this process parses (BENCHMARKS.md, "Reading every pod"). Each namespace
   * is read at its own latest resourceVersion, so the result is not one snapshot of the cluster;
   * nor is the scheduler's own cache, which its informers fill event by event, and a pod that
   * appears or goes mid-read is as likely to be missed by the scheduler's last attempt. (Pinning
   * every namespace to the namespace list's resourceVersion, resourceVersionMatch=Exact, adds a
   * 410 path for nothing.) A namespace created after the namespace list is not read. When the
   * namespaces cannot be listed (the documented role grants it, narrower ones may not), or any
   * namespace's read is refused or fails, one paged LIST of every pod does it instead, with the
   * same gaps and errors as before: nothing is lost but time.
   */
  private async everyPod(keep: (pod: V1Pod) => boolean): Promise<void> {
    const started = this.everyPodStarted;
    const read = started ? (await started)?.filter(keep) : await this.byNamespace(keep);
    if (read) {
      this.reader.add('pods', read);
      return;
    }
    await this.reader.list<V1Pod>(resources.pods, undefined, 'listing pods', { query: everyPodQuery, keep, cut: this.neighbours });
  }

  /** Starts reading every pod, each namespace's kept whole, before the plan asks for it (listNodes). */
  private startEveryPod(): void {
    if (this.everyPodStarted) return;
    this.reader.progress('listing every non-terminal pod');
    this.everyPodStarted = this.byNamespace(() => true);
    // Its failure is seen where it is awaited (everyPod); not unhandled if the read ends before.
    this.everyPodStarted.catch(() => undefined);
  }

  /**
   * Every non-terminal bound pod that `keep` keeps, read one namespace at a time, a few at once;
   * undefined when the namespaces cannot be listed or a namespace's read is refused or fails.
   */
  private async byNamespace(keep: (pod: V1Pod) => boolean): Promise<V1Pod[] | undefined> {
    const namespaces = await this.namespaceNames();
    if (!namespaces || namespaces.length <= 1) return undefined;
    const { transport, progress } = this.reader;
    const { decodeProtobuf, reduce } = this.neighbours;
    const read: V1Pod[] = [];
    const todo = [...namespaces];
    let failed = false;
    const worker = async (): Promise<void> => {
      for (let ns = todo.shift(); ns !== undefined && !failed; ns = todo.shift()) {
        try {
          const request = { path: pathOf(resources.pods, ns), query: everyPodQuery, what: `listing pods in namespace ${ns}`, ...(decodeProtobuf ? { decodeProtobuf } : {}) };
          const pods = await transport.list<V1Pod>(request, { keep, ...(reduce ? { reduce } : {}), prefetch: false });
          for (const p of pods) read.push(p); // not push(...pods): a namespace may hold more pods than a call takes arguments
        } catch (error) {
          if (!(error instanceof ApiStatusError)) throw error;
          failed = true;
        }
        if (read.length >= 500) progress(`listing pods (${read.length} so far)`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(namespaceReadsAtOnce, namespaces.length) }, worker));
    return failed ? undefined : read;
  }

  /** The names of every namespace (names only), or undefined when they cannot be listed. */
  private async namespaceNames(): Promise<string[] | undefined> {
    try {
      const items = await this.reader.transport.list<Meta>({ path: '/api/v1/namespaces', what: 'listing namespaces', accept: namesOnly });
      return items.flatMap((item) => (item.metadata?.name ? [item.metadata.name] : []));
    } catch (error) {
      if (error instanceof ApiStatusError) return undefined;
      throw error;
    }
  }

  private async podsOnNode(node: string): Promise<void> {
    if (this.forbiddenClusterWide) return;
    const query = { fieldSelector: `spec.nodeName=${escapeField(node)},${nonTerminal}` };
    await this.reader.list<V1Pod>(resources.pods, undefined, `listing pods on node ${node}`, { query, cut: this.neighbours });
    if (this.reader.podsRefusedClusterWide()) this.forbiddenClusterWide = true;
  }

  private async selectedPods(selection: Selection): Promise<void> {
    const where = selection.namespace === undefined ? 'all namespaces' : `namespace ${selection.namespace}`;
    const query = { labelSelector: selection.labelSelector, ...everyPodQuery };
    await this.reader.list<V1Pod>(resources.pods, selection.namespace, `listing pods matching "${selection.labelSelector}" in ${where}`, { query, cut: this.neighbours });
  }

  /** NodeVolumeLimits counts the volumes of pods already on a node: their claims and PVs. */
  private async neighbourVolumes(plan: ReadPlan, nodes: readonly string[]): Promise<void> {
    const reader = this.reader;
    const relevant = new Set(plan.volumeLimited(nodes));
    if (relevant.size === 0) return;
    const refs = reader.objects.pods
      .filter((p) => relevant.has(p.spec?.nodeName ?? ''))
      .flatMap((p) => podClaimRefs(p).map((ref) => ({ namespace: namespaceOf(p), name: ref.claim })));
    if (refs.length === 0) return;
    reader.progress(`reading the claims of pods on ${relevant.size} node${relevant.size === 1 ? '' : 's'} with volume limits`);
    await reader.named(resources.persistentVolumeClaims, refs, 'reading claims of pods on candidate nodes');
    const volumes = refs.flatMap((ref) => reader.find<V1PersistentVolumeClaim>('persistentVolumeClaims', ref.namespace, ref.name)?.spec?.volumeName ?? []);
    await reader.named(resources.persistentVolumes, [...new Set(volumes)].map((name) => ({ name })), 'reading volumes of pods on candidate nodes');
  }
}
