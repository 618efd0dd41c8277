// Which nodes a generator looks at: those the judgement proves to fail (never one whose
// verdict rests on a gap), and of those, the ones a given plugin alone rejects.
import type { NodeVerdict } from '../diagnosis.js';
import type { Judgement } from '../judge.js';
import type { NodeFacts } from '../model.js';
import type { PluginName } from '../plugins.js';

// Every generator asks, and again for each second change: worked out once per judgement.
const failingOf = new WeakMap<Judgement, NodeVerdict[]>();

export function failing(judgement: Judgement): NodeVerdict[] {
  if (judgement.preFilter.length > 0) return [];
  let found = failingOf.get(judgement);
  if (!found) {
    found = judgement.nodes.filter((n) => n.verdict === 'fails' && n.unchecked.length === 0);
    failingOf.set(judgement, found);
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
    found = failing(judgement).filter((n) => n.reasons.every((r) => plugins.includes(r.plugin)));
    byPlugins.set(key, found);
  }
  return found;
}

// One index per list of node facts (a context's, or a patched context's): generators look a
// node up for each failing node, and a linear search each time is quadratic at 5,000 nodes.
const indexes = new WeakMap<readonly NodeFacts[], Map<string, NodeFacts>>();

/** The facts of the node named `name` among `nodes`. */
export function nodeNamed(nodes: readonly NodeFacts[], name: string): NodeFacts | undefined {
  let index = indexes.get(nodes);
  if (!index) {
    index = new Map(nodes.map((n) => [n.name, n]));
    indexes.set(nodes, index);
  }
  return index.get(name);
}
