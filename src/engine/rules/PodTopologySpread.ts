// PodTopologySpread, as kube-scheduler v1.34 filters (podtopologyspread/filtering.go, common.go,
// plugin.go). Only `whenUnsatisfiable: DoNotSchedule` constraints filter; the system default
// constraints are all ScheduleAnyway, so they never do. PreFilter counts, per constraint and
// per topology value, the pods that match the constraint's selector in the pod's own namespace
// (terminating pods excluded) on the nodes that carry every constraint's topologyKey and pass the
// constraint's nodeAffinityPolicy (default Honor) and nodeTaintsPolicy (default Ignore). Filter
// then checks, constraint by constraint, that
//   count(node's domain) + (1 if the pod matches the selector) - global minimum <= maxSkew,
// where the global minimum is 0 while there are fewer eligible domains than minDomains.
// The scheduler stops at a node's first failing constraint; we report every failing one, in the
// pod's order, so the first is the scheduler's.
import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';
import type { NodeRecord } from '../../snapshot/types.js';
import type { FilterRule, NodeFacts, PodFacts, RuleReason, RuleContext } from '../model.js';
import { oncePerCycle } from '../cycleState.js';
import { formatLabelSelector, isEmptySelector, matchesLabelSelector, mergeLabelKeys } from '../match/labelSelector.js';
import { anchorOf, findLabelledOnEveryNode, mayMatch, type LabelAnchor } from '../match/podsLabelled.js';
import { matchesRequiredNodeAffinity } from '../match/nodeSelector.js';
import { isTerminating } from '../facts.js';
import { untoleratedTaints } from '../match/tolerations.js';

export interface SpreadConstraintRef {
  /** Position in spec.topologySpreadConstraints (all of them, ScheduleAnyway included). */
  index: number;
  topologyKey: string;
  maxSkew: number;
  /** 1 when unset, as the scheduler reads it. */
  minDomains: number;
  /** The selector with matchLabelKeys merged in, as apimachinery prints it; null when unset (matches no pod). */
  selector: string | null;
  nodeAffinityPolicy: string;
  nodeTaintsPolicy: string;
}

export interface DomainCount {
  domain: string;
  pods: number;
}

export type PodTopologySpreadDetail =
  | {
      kind: 'spreadSkewExceeded';
      constraint: SpreadConstraintRef;
      /** The node's value of the topologyKey. */
      domain: string;
      /** Matching pods already in that domain. */
      matching: number;
      /** The pod matches its own constraint's selector, so placing it adds one. */
      selfMatch: boolean;
      globalMinimum: number;
      /** Fewer eligible domains than minDomains: the global minimum was taken as 0. */
      belowMinDomains: boolean;
      /** Eligible domains: distinct topologyKey values among the nodes counted. */
      domainCount: number;
      skew: number;
      /** Matching pods per eligible domain, by domain name; when there are many, only the node's and the emptiest. */
      counts: DomainCount[];
      /** The skew exceeds maxSkew only because there are fewer domains than minDomains (the minimum taken as 0). */
      onlyMinDomains?: true;
      /**
       * nodeTaintsPolicy Ignore: the skew exceeds maxSkew only because of domains whose nodes all
       * carry taints the pod does not tolerate (it can never run there); Honor would leave them out.
       */
      onlyTaintedDomains?: string[];
    }
  | { kind: 'spreadLabelMissing'; constraint: SpreadConstraintRef };

type PodTopologySpreadReason = RuleReason<'PodTopologySpread', PodTopologySpreadDetail>;

// --- label selector helpers (shared with InterPodAffinity) ---


// --- the rule ---

interface Constraint {
  ref: SpreadConstraintRef;
  selector: V1LabelSelector | undefined;
  /** One matchLabels entry of the selector: only pods that carry it are counted. */
  anchor: LabelAnchor | undefined;
}

interface DomainCounts {
  /** Matching pods per eligible topology value. */
  byValue: Map<string, number>;
  /** The smallest count; MaxInt32 when there is no eligible domain, as the scheduler's critical path starts. */
  minimum: number;
  /** Every domain by name when there are few; otherwise the emptiest ones (the node's own is added when shown). */
  shown: DomainCount[];
  complete: boolean;
}

interface SpreadState {
  constraints: Constraint[];
  /** Per constraint, in the same order. */
  counts: DomainCounts[];
  /** Per constraint with nodeTaintsPolicy Ignore: the counts Honor would give (nodes with untolerated taints left out). */
  honored: (DomainCounts | undefined)[];
}

// The pod's DoNotSchedule constraints, as the scheduler's getConstraints reads them.
function constraintsOf(pod: V1Pod): Constraint[] {
  const labels = pod.metadata?.labels ?? {};
  return (pod.spec?.topologySpreadConstraints ?? []).flatMap((c, index): Constraint[] => {
    if (c.whenUnsatisfiable !== 'DoNotSchedule') return [];
    const selector = mergeLabelKeys(c.labelSelector, c.matchLabelKeys, 'In', labels);
    return [
      {
        selector,
        anchor: anchorOf(selector),
        ref: {
          index,
          topologyKey: c.topologyKey,
          maxSkew: c.maxSkew,
          minDomains: c.minDomains ?? 1,
          selector: formatLabelSelector(selector),
          nodeAffinityPolicy: c.nodeAffinityPolicy ?? 'Honor',
          nodeTaintsPolicy: c.nodeTaintsPolicy ?? 'Ignore',
        },
      },
    ];
  });
}


function passesInclusionPolicies(constraint: Constraint, pod: V1Pod, node: NodeRecord): boolean {
  if (constraint.ref.nodeAffinityPolicy === 'Honor' && !matchesRequiredNodeAffinity(pod, node)) return false;
  if (constraint.ref.nodeTaintsPolicy === 'Honor' && untoleratedTaints(node.spec?.taints ?? [], pod.spec?.tolerations ?? []).length > 0) return false;
  return true;
}

function countMatching(pods: readonly V1Pod[], { selector, anchor }: Constraint, namespace: string): number {
  // An empty selector counts nothing (common.go countPodsMatchSelector), though it matches the pod itself.
  if (isEmptySelector(selector)) return 0;
  const candidates = mayMatch(pods, anchor);
  let count = 0;
  for (let i = 0; i < candidates.length; i++) {
    const p = candidates[i] as V1Pod;
    if (!isTerminating(p) && (p.metadata?.namespace ?? 'default') === namespace && matchesLabelSelector(selector, p.metadata?.labels)) count++;
  }
  return count;
}

function computeState(ctx: RuleContext): SpreadState {
  const pod = ctx.pod.pod;
  const constraints = constraintsOf(pod);
  if (constraints.length === 0) return { constraints, counts: [], honored: [] };
  const maps = constraints.map(() => new Map<string, number>());
  // What nodeTaintsPolicy Honor would count, for a failure only an untolerable domain causes.
  const honoring = constraints.map((c) => (c.ref.nodeTaintsPolicy === 'Honor' ? undefined : { ...c, ref: { ...c.ref, nodeTaintsPolicy: 'Honor' } }));
  const honoredMaps = honoring.map((c) => (c ? new Map<string, number>() : undefined));
  for (const c of constraints) if (!isEmptySelector(c.selector)) findLabelledOnEveryNode(ctx.snapshot, c.anchor, c.ref.topologyKey);
  for (const node of ctx.nodes) {
    // A node lacking any constraint's topologyKey counts for none of them.
    if (!constraints.every((c) => Object.hasOwn(node.labels, c.ref.topologyKey))) continue;
    constraints.forEach((c, i) => {
      if (!passesInclusionPolicies(c, pod, node.node)) return;
      const value = node.labels[c.ref.topologyKey] ?? '';
      const matching = countMatching(node.pods, c, ctx.pod.namespace);
      const byValue = maps[i]!;
      byValue.set(value, (byValue.get(value) ?? 0) + matching);
      const honoredOn = honoring[i];
      const honored = honoredMaps[i];
      if (honoredOn && honored && passesInclusionPolicies(honoredOn, pod, node.node)) honored.set(value, (honored.get(value) ?? 0) + matching);
    });
  }
  return { constraints, counts: maps.map(summarize), honored: honoredMaps.map((m) => (m ? summarize(m) : undefined)) };
}

const shownDomains = 10;

function byDomain(a: DomainCount, b: DomainCount): number {
  return a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0;
}

function summarize(byValue: Map<string, number>): DomainCounts {
  const all = [...byValue].map(([domain, pods]) => ({ domain, pods }));
  const minimum = all.reduce((min, c) => Math.min(min, c.pods), 2147483647);
  if (all.length <= shownDomains) return { byValue, minimum, shown: all.sort(byDomain), complete: true };
  const emptiest = all.filter((c) => c.pods === minimum).sort(byDomain).slice(0, shownDomains - 1);
  return { byValue, minimum, shown: emptiest, complete: false };
}

function countsFor(counts: DomainCounts, domain: string): DomainCount[] {
  const pods = counts.byValue.get(domain);
  if (counts.complete || pods === undefined || counts.shown.some((c) => c.domain === domain)) return counts.shown;
  return [...counts.shown, { domain, pods }].sort(byDomain);
}

// What computeState reads: the pod's namespace, labels, constraints, node affinity and
// tolerations (the inclusion policies), and each node's facts. A fix's replay that changes none
// of them (a request, a node's labels elsewhere) reuses the counts instead of walking every pod.
const stateFor = oncePerCycle(computeState, (ctx) => {
  const spec = ctx.pod.pod.spec;
  if ((spec?.topologySpreadConstraints?.length ?? 0) === 0) return ['no constraints'];
  return [
    JSON.stringify([ctx.pod.namespace, ctx.pod.pod.metadata?.labels ?? {}, spec?.topologySpreadConstraints, spec?.nodeSelector ?? {}, spec?.affinity?.nodeAffinity ?? {}, spec?.tolerations ?? []]),
    ...ctx.nodes,
  ];
});

/**
 * The domains whose every node carries a taint the pod does not tolerate, when leaving them out
 * (nodeTaintsPolicy Honor) would bring the node's skew within maxSkew; undefined otherwise.
 */
function taintedDomainsOnly(honored: DomainCounts | undefined, counts: DomainCounts, c: Constraint, domain: string, selfMatch: boolean): string[] | undefined {
  if (!honored || !honored.byValue.has(domain)) return undefined;
  const minimum = honored.byValue.size < c.ref.minDomains ? 0 : honored.minimum;
  if ((honored.byValue.get(domain) ?? 0) + (selfMatch ? 1 : 0) - minimum > c.ref.maxSkew) return undefined;
  const left = [...counts.byValue.keys()].filter((d) => !honored.byValue.has(d)).sort();
  return left.length > 0 ? left : undefined;
}

function check(state: SpreadState, pod: PodFacts, node: NodeFacts): PodTopologySpreadReason[] {
  const reasons: PodTopologySpreadReason[] = [];
  const podLabels = pod.pod.metadata?.labels ?? {};
  state.constraints.forEach((c, i) => {
    const key = c.ref.topologyKey;
    if (!Object.hasOwn(node.labels, key)) {
      reasons.push({ plugin: 'PodTopologySpread', code: 'UnschedulableAndUnresolvable', detail: { kind: 'spreadLabelMissing', constraint: c.ref } });
      return;
    }
    const domain = node.labels[key] ?? '';
    const counts = state.counts[i]!;
    const byValue = counts.byValue;
    const belowMinDomains = byValue.size < c.ref.minDomains;
    const globalMinimum = belowMinDomains ? 0 : counts.minimum;
    const selfMatch = matchesLabelSelector(c.selector, podLabels);
    const matching = byValue.get(domain) ?? 0;
    const skew = matching + (selfMatch ? 1 : 0) - globalMinimum;
    if (skew <= c.ref.maxSkew) return;
    const onlyMinDomains = belowMinDomains && matching + (selfMatch ? 1 : 0) - counts.minimum <= c.ref.maxSkew;
    const onlyTaintedDomains = taintedDomainsOnly(state.honored[i], counts, c, domain, selfMatch);
    reasons.push({
      plugin: 'PodTopologySpread',
      code: 'Unschedulable',
      detail: {
        kind: 'spreadSkewExceeded',
        constraint: c.ref,
        domain,
        matching,
        selfMatch,
        globalMinimum,
        belowMinDomains,
        domainCount: byValue.size,
        skew,
        counts: countsFor(counts, domain),
        ...(onlyMinDomains ? { onlyMinDomains: true as const } : {}),
        ...(onlyTaintedDomains ? { onlyTaintedDomains } : {}),
      },
    });
  });
  return reasons;
}

const rule: FilterRule<'PodTopologySpread', PodTopologySpreadDetail> = {
  meta: { name: 'PodTopologySpread', kinds: ['spreadSkewExceeded', 'spreadLabelMissing'] },
  needs: (pod) => (constraintsOf(pod.pod).length > 0 ? ['nodes', 'pods'] : []),
  // A node without the topology key fails whatever runs; a skew depends on every pod and node.
  provenDespiteGaps: (detail) => detail.kind === 'spreadLabelMissing',
  // No DoNotSchedule constraint: nothing to filter (upstream's Skip).
  preFilter: ({ pod }) => (constraintsOf(pod.pod).length === 0 ? { skip: true } : {}),
  filter(ctx, node) {
    const state = stateFor(ctx);
    if (state.constraints.length === 0) return [];
    return check(state, ctx.pod, node);
  },
};

export default rule;
