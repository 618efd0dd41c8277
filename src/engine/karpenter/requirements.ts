// Whether a node of a NodePool could carry the labels the pod asks for, as Karpenter decides it
// (sigs.k8s.io/karpenter v1.15.0, pkg/scheduling/requirement.go and requirements.go,
// Requirements.Compatible with AllowUndefinedWellKnownLabels, called from
// pkg/controllers/provisioning/scheduling/nodeclaim.go NodeClaim.CanAdd):
// - a NodePool's requirements are its spec.template.spec.requirements, its template labels (each
//   `key In [value]`), and karpenter.sh/nodepool In [its name] (nodeclaimtemplate.go);
// - the pod's are its nodeSelector (each `key In [value]`) and the match expressions of one
//   required node affinity term (Karpenter tries the terms in order: newPodRequirements takes the
//   first and relaxes to the next when it fails, so the pod fits when one term does);
// - a key the pod asks for that the NodePool does not define fails, unless it is a well-known
//   label (the cloud provider's instance types define those) or the pod's operator is NotIn or
//   DoesNotExist ("label %q does not have known values");
// - a key both define must have values in common, except that NotIn/DoesNotExist against
//   NotIn/DoesNotExist always passes ("key %s, %s not in %s").
// Each requirement is a set of values: In is the set, NotIn and Exists its complement, Gt/Lt a
// complement bounded by an integer, DoesNotExist the empty set.
import { formatRequirement } from '../match/nodeSelector.js';
import { isNearMiss, nearest, type TextDiff } from '../nearmiss/index.js';
import type { KarpenterNodePool, KarpenterRequirement } from '../../snapshot/types.js';
import type { V1Pod } from '@kubernetes/client-node';

/**
 * Labels Karpenter allows a pod to ask for although a NodePool does not define them
 * (v1.WellKnownLabels, pkg/apis/v1/labels.go). A cloud provider adds its own at start-up:
 * see providerLabelDomains.
 */
const wellKnownLabels: readonly string[] = [
  'karpenter.sh/nodepool',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/arch',
  'kubernetes.io/os',
  'karpenter.sh/capacity-type',
  'node.kubernetes.io/windows-build',
];

/**
 * The label domains of Karpenter's cloud providers, whose providers register labels of their
 * instance types as well-known (AWS: karpenter.k8s.aws/instance-family and the like, with
 * topology.k8s.aws/zone-id; Azure: karpenter.azure.com/sku-*; the KWOK provider:
 * karpenter.kwok.sh/instance-size, -family, -cpu, -memory). Which keys and values exist depends
 * on the instance types, which are not in the input: a NodePool that does not define such a
 * key is not called incompatible for it (no false blame; its instance types decide).
 */
const providerLabelDomains: readonly string[] = ['karpenter.k8s.aws', 'topology.k8s.aws', 'karpenter.azure.com', 'karpenter.kwok.sh'];

function providerLabel(key: string): boolean {
  const slash = key.indexOf('/');
  return slash > 0 && providerLabelDomains.includes(key.slice(0, slash));
}

/** A requirement as a set: `values` taken as they are, or (complement) everything but them. */
interface ValueSet {
  complement: boolean;
  values: Set<string>;
  greaterThan?: bigint;
  lessThan?: bigint;
  /** The operator it came from, for NotIn/DoesNotExist's exception. */
  operator: string;
}

const integer = /^-?\d+$/;

function setOf(r: KarpenterRequirement): ValueSet {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return { complement: false, values: new Set(values), operator: r.operator };
    case 'NotIn':
      return { complement: true, values: new Set(values), operator: r.operator };
    case 'Exists':
      return { complement: true, values: new Set(), operator: r.operator };
    case 'Gt':
    case 'Lt': {
      const bound = values[0] !== undefined && integer.test(values[0]) ? BigInt(values[0]) : undefined;
      return { complement: true, values: new Set(), operator: r.operator, ...(bound === undefined ? {} : r.operator === 'Gt' ? { greaterThan: bound } : { lessThan: bound }) };
    }
    default:
      // DoesNotExist, and any operator the API would not accept: no value.
      return { complement: false, values: new Set(), operator: r.operator };
  }
}

function withinBounds(value: string, s: ValueSet): boolean {
  if (s.greaterThan === undefined && s.lessThan === undefined) return true;
  if (!integer.test(value)) return false;
  const n = BigInt(value);
  return (s.greaterThan === undefined || n > s.greaterThan) && (s.lessThan === undefined || n < s.lessThan);
}

function contains(s: ValueSet, value: string): boolean {
  return (s.complement ? !s.values.has(value) : s.values.has(value)) && withinBounds(value, s);
}

/** Requirement.Intersection(...).Len() > 0, as HasIntersection decides it. */
function intersects(a: ValueSet, b: ValueSet): boolean {
  if (!a.complement) return [...a.values].some((v) => contains(b, v));
  if (!b.complement) return [...b.values].some((v) => contains(a, v));
  // Both complements: only integer bounds can make them disjoint.
  const greater = [a.greaterThan, b.greaterThan].filter((x): x is bigint => x !== undefined);
  const less = [a.lessThan, b.lessThan].filter((x): x is bigint => x !== undefined);
  if (greater.length === 0 || less.length === 0) return true;
  const lo = greater.reduce((x, y) => (x > y ? x : y));
  const hi = less.reduce((x, y) => (x < y ? x : y));
  return hi - lo > 1n;
}

const negative = (operator: string) => operator === 'NotIn' || operator === 'DoesNotExist';

/** The NodePool's requirements by key: template requirements, template labels, its own name label. */
function nodePoolRequirements(pool: KarpenterNodePool): Map<string, KarpenterRequirement[]> {
  const byKey = new Map<string, KarpenterRequirement[]>();
  const add = (r: KarpenterRequirement) => byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
  for (const r of pool.spec?.template?.spec?.requirements ?? []) add(r);
  for (const [key, value] of Object.entries(pool.spec?.template?.metadata?.labels ?? {})) add({ key, operator: 'In', values: [value] });
  add({ key: 'karpenter.sh/nodepool', operator: 'In', values: [pool.metadata?.name ?? ''] });
  return byKey;
}

/** Where a pod's requirement comes from. */
export type RequirementSource = { kind: 'nodeSelector' } | { kind: 'affinityTerm'; index: number };

export type RequirementMismatch =
  /**
   * The pod asks for a label the NodePool does not define, and that is not well known. `closest`:
   * the NodePool's (or a well-known) key nearest to it, when it is a near miss.
   */
  | { kind: 'undefinedLabel'; requirement: KarpenterRequirement; source: RequirementSource; closest?: { key: string; diff: TextDiff } }
  /**
   * Both define the key and no value satisfies both. `closest`: for a pod asking In, the
   * NodePool's value nearest to one it wants, when it is a near miss.
   */
  | { kind: 'noCommonValue'; requirement: KarpenterRequirement; source: RequirementSource; nodePool: KarpenterRequirement[]; closest?: { wanted: string; value: string; diff: TextDiff } };

/** The pod's requirements: its nodeSelector, and one list per required node affinity term. */
function podRequirements(pod: V1Pod): { selector: KarpenterRequirement[]; terms: KarpenterRequirement[][] } {
  const selector = Object.entries(pod.spec?.nodeSelector ?? {}).map(([key, value]) => ({ key, operator: 'In', values: [value] }));
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const terms = (required?.nodeSelectorTerms ?? []).map((t) => (t.matchExpressions ?? []).map((e) => ({ key: e.key, operator: e.operator, ...(e.values ? { values: e.values } : {}) })));
  return { selector, terms };
}

function nearValue(wanted: readonly string[], offered: readonly string[]): { wanted: string; value: string; diff: TextDiff } | undefined {
  let best: { wanted: string; value: string; diff: TextDiff; score: number } | undefined;
  for (const w of wanted) {
    const found = nearest(w, offered, (v) => v);
    if (found && isNearMiss(found.diff) && (!best || found.score > best.score)) best = { wanted: w, value: found.item, diff: found.diff, score: found.score };
  }
  if (!best) return undefined;
  const { score: _score, ...near } = best;
  return near;
}

/** What one requirement list of the pod misses on the NodePool (empty: compatible). */
function mismatches(pool: Map<string, KarpenterRequirement[]>, wanted: readonly KarpenterRequirement[], source: RequirementSource): RequirementMismatch[] {
  const out: RequirementMismatch[] = [];
  for (const requirement of wanted) {
    const defined = pool.get(requirement.key);
    if (!defined) {
      if (wellKnownLabels.includes(requirement.key) || providerLabel(requirement.key) || negative(requirement.operator)) continue;
      const found = nearest(requirement.key, [...pool.keys(), ...wellKnownLabels], (k) => k);
      const closest = found && isNearMiss(found.diff) ? { closest: { key: found.item, diff: found.diff } } : {};
      out.push({ kind: 'undefinedLabel', requirement, source, ...closest });
      continue;
    }
    const incoming = setOf(requirement);
    const ok = defined.every((existing) => {
      const set = setOf(existing);
      return intersects(set, incoming) || (negative(incoming.operator) && negative(set.operator));
    });
    if (ok) continue;
    const offered = defined.filter((d) => d.operator === 'In').flatMap((d) => d.values ?? []);
    const near = requirement.operator === 'In' ? nearValue(requirement.values ?? [], offered) : undefined;
    out.push({ kind: 'noCommonValue', requirement, source, nodePool: defined, ...(near ? { closest: near } : {}) });
  }
  return out;
}

/**
 * The pod's requirements the NodePool cannot meet: the nodeSelector's, and those of the term
 * that misses least (none when some term, or the pod without terms, fits).
 */
export function requirementMismatches(pool: KarpenterNodePool, pod: V1Pod): RequirementMismatch[] {
  const byKey = nodePoolRequirements(pool);
  const { selector, terms } = podRequirements(pod);
  const fromSelector = mismatches(byKey, selector, { kind: 'nodeSelector' });
  if (terms.length === 0) return fromSelector;
  const perTerm = terms.map((term, index) => mismatches(byKey, term, { kind: 'affinityTerm', index }));
  if (perTerm.some((m) => m.length === 0)) return fromSelector;
  const fewest = perTerm.reduce((a, b) => (b.length < a.length ? b : a));
  return [...fromSelector, ...fewest];
}

/** For a requirement's text in messages: `key=a` for one value, else as node affinity writes it. */
export function formatKarpenterRequirement(r: KarpenterRequirement): string {
  const values = r.values ?? [];
  // Karpenter's requirements are node selector requirements (plus minValues).
  return r.operator === 'In' && values.length === 1 ? `${r.key}=${values[0] ?? ''}` : formatRequirement({ key: r.key, operator: r.operator, values });
}
