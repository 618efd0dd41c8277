// Which nodes a generator looks at: those the judgement proves to fail (never one whose
// verdict rests on a gap), and of those, the ones a given plugin alone rejects.
import type { V1PodSpec } from '@kubernetes/client-node';
import type { NodeVerdict } from '../judge.js';
import { positionsIn, type Judgement } from '../judge.js';
import type { NodeFacts } from '../model.js';
import type { PluginName } from '../names.js';

// Every generator asks, and again for each second change: worked out once per judgement.
const failingOf = new WeakMap<Judgement, NodeVerdict[]>();

export function failing(judgement: Judgement): NodeVerdict[] {
  if (judgement.preFilter.length > 0) return [];
  let found = failingOf.get(judgement);
  if (!found) {
    found = [];
    // Indexed loops here and below: each walks 5,000 verdicts once per judgement, mostly before V8 has compiled it.
    for (let i = 0; i < judgement.nodes.length; i++) {
      const n = judgement.nodes[i] as NodeVerdict;
      if (n.verdict === 'fails' && n.unchecked.length === 0) found.push(n);
    }
    failingOf.set(judgement, found);
  }
  return found;
}

// What fails among those nodes, in one pass: a generator whose plugin fails nowhere (no taint
// to tolerate, no cordon, no shortfall) or that needs a failure preemption might resolve
// returns at once instead of walking 4,500 verdicts to find nothing.
const summaryOf = new WeakMap<Judgement, { plugins: ReadonlySet<PluginName>; preemptible: boolean }>();

/** The plugins that fail the failing nodes, and whether any failure is one preemption might resolve (code Unschedulable). */
export function failures(judgement: Judgement): { plugins: ReadonlySet<PluginName>; preemptible: boolean } {
  let found = summaryOf.get(judgement);
  if (!found) {
    const plugins = new Set<PluginName>();
    let preemptible = false;
    const nodes = failing(judgement);
    // Nodes of one class share their list of reasons: each list is read once in a row.
    let last: NodeVerdict['reasons'] | undefined;
    for (let i = 0; i < nodes.length; i++) {
      const reasons = (nodes[i] as NodeVerdict).reasons;
      if (reasons === last) continue;
      last = reasons;
      for (let j = 0; j < reasons.length; j++) {
        const reason = reasons[j] as NodeVerdict['reasons'][number];
        plugins.add(reason.plugin);
        if (reason.code === 'Unschedulable') preemptible = true;
      }
    }
    found = { plugins, preemptible };
    summaryOf.set(judgement, found);
  }
  return found;
}

// Several generators ask for the same plugins (the selector, label and affinity fixes all for
// NodeAffinity): each list is worked out once per judgement. Callers only read it.
const onlyOnOf = new WeakMap<Judgement, Map<string, readonly NodeVerdict[]>>();

/** Failing nodes whose every reason is one of `plugins`: the ones a change of that kind alone could free. */
export function failingOnlyOn(judgement: Judgement, ...plugins: PluginName[]): readonly NodeVerdict[] {
  let byPlugins = onlyOnOf.get(judgement);
  if (!byPlugins) onlyOnOf.set(judgement, (byPlugins = new Map()));
  const key = plugins.join(',');
  let found = byPlugins.get(key);
  if (!found) {
    const only: NodeVerdict[] = [];
    const nodes = failing(judgement);
    // Nodes of one class share their list of reasons: the answer for the last list is kept.
    let last: NodeVerdict['reasons'] | undefined;
    let lastAnswer = false;
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as NodeVerdict;
      if (node.reasons !== last) {
        last = node.reasons;
        lastAnswer = allOf(node.reasons, plugins);
      }
      if (lastAnswer) only.push(node);
    }
    found = only;
    byPlugins.set(key, found);
  }
  return found;
}

function allOf(reasons: NodeVerdict['reasons'], plugins: readonly PluginName[]): boolean {
  for (let i = 0; i < reasons.length; i++) if (!plugins.includes((reasons[i] as NodeVerdict['reasons'][number]).plugin)) return false;
  return true;
}

/**
 * The facts of the node named `name` among `nodes`: generators look a node up for each failing
 * node, so through the judge's index of the list (built once per list), not a search each time.
 */
// Asked for a few labels of one judgement's nodes (each fix's class, each relabelling): known once per list.
const carriedOf = new WeakMap<readonly NodeFacts[], Map<string, boolean>>();

/** Whether some node carries `key=value`: a spelling the cluster uses. */
export function someNodeCarries(nodes: readonly NodeFacts[], key: string, value: string): boolean {
  let known = carriedOf.get(nodes);
  if (!known) carriedOf.set(nodes, (known = new Map()));
  const id = `${key}\u0000${value}`;
  let found = known.get(id);
  if (found === undefined) {
    found = nodes.some((n) => Object.hasOwn(n.labels, key) && n.labels[key] === value);
    known.set(id, found);
  }
  return found;
}

export function nodeNamed(nodes: readonly NodeFacts[], name: string): NodeFacts | undefined {
  const at = positionsIn(nodes);
  if (!at) return nodes.findLast((n) => n.name === name); // a name repeated: the last, as before
  const i = at.get(name);
  return i === undefined ? undefined : nodes[i];
}

/**
 * The keys of the pod's nodeSelector when the pod has no required node-affinity terms (so that
 * the selector is all NodeAffinity asks of a node's labels), else undefined.
 */
export function selectorOnlyKeys(spec: V1PodSpec | undefined): string[] | undefined {
  const terms = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return terms ? undefined : Object.keys(spec?.nodeSelector ?? {});
}

/** Whether the node named `name` carries a label for each key (whatever its value). */
export function carriesAll(nodes: readonly NodeFacts[], name: string, keys: readonly string[]): boolean {
  const labels = nodeNamed(nodes, name)?.labels;
  return labels !== undefined && keys.every((key) => Object.hasOwn(labels, key));
}
