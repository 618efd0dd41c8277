// Which nodes a generator looks at: those the judgement proves to fail (never one whose
// verdict rests on a gap), and of those, the ones a given plugin alone rejects. A node the pod
// is pinned away from by name is none of them: its nodeSelector names another node by its
// kubernetes.io/hostname (match/pins.ts), or NodeAffinity's PreFilter left it out (every
// required term names nodes by metadata.name, as a DaemonSet's pod does). No generator's change
// frees such a node (the selector's, the labels' and the terms' fixes leave a pin by name
// alone). A pod pinned to one node of 5,000 had each generator walk, and each replay judge,
// 4,999 nodes it can never run on.
import type { V1PodSpec } from '@kubernetes/client-node';
import type { NodeVerdict } from '../judge.js';
import { positionsIn, type Judgement } from '../judge.js';
import type { NodeFacts } from '../model.js';
import type { PluginName } from '../names.js';

/**
 * What the generators ask of one judgement's failing nodes, found in one pass: the nodes
 * proven to fail, the plugins that fail them, whether any failure is one preemption might
 * resolve (code Unschedulable), and, by plugin, the nodes that plugin alone fails. Every
 * generator asks, and again for each second change; each walk of 5,000 verdicts, mostly before
 * V8 has compiled it, cost a first diagnosis 1 to 5 ms, and there were five.
 */
interface Failing {
  nodes: NodeVerdict[];
  plugins: Set<PluginName>;
  preemptible: boolean;
  onlyOn: Map<PluginName, NodeVerdict[]>;
}

const failingOf = new WeakMap<Judgement, Failing>();
const noNodes: readonly NodeVerdict[] = Object.freeze([]);

function failingIn(judgement: Judgement): Failing {
  let found = failingOf.get(judgement);
  if (found) return found;
  found = { nodes: [], plugins: new Set(), preemptible: false, onlyOn: new Map() };
  failingOf.set(judgement, found);
  if (judgement.preFilter.length > 0) return found;
  // Nodes of one class share their list of reasons: a list read once in a row.
  let last: NodeVerdict['reasons'] | undefined;
  let sole: NodeVerdict[] | undefined;
  let away = false;
  // Indexed: 5,000 verdicts, once per judgement.
  for (let i = 0; i < judgement.nodes.length; i++) {
    const n = judgement.nodes[i] as NodeVerdict;
    if (n.verdict !== 'fails' || n.unchecked.length > 0) continue;
    const reasons = n.reasons;
    if (reasons !== last) {
      last = reasons;
      away = pinnedAway(reasons);
      if (away) continue;
      let only: PluginName | undefined = (reasons[0] as NodeVerdict['reasons'][number] | undefined)?.plugin;
      for (let j = 0; j < reasons.length; j++) {
        const reason = reasons[j] as NodeVerdict['reasons'][number];
        found.plugins.add(reason.plugin);
        if (reason.code === 'Unschedulable') found.preemptible = true;
        if (reason.plugin !== only) only = undefined;
      }
      sole = undefined;
      if (only !== undefined) {
        sole = found.onlyOn.get(only);
        if (!sole) found.onlyOn.set(only, (sole = []));
      }
    } else if (away) continue;
    found.nodes.push(n);
    sole?.push(n);
  }
  return found;
}

/** Whether the node's reasons say the pod names other nodes by name: its nodeSelector's hostname, or its terms' metadata.name. */
function pinnedAway(reasons: NodeVerdict['reasons']): boolean {
  for (let j = 0; j < reasons.length; j++) {
    const detail = (reasons[j] as NodeVerdict['reasons'][number]).detail;
    if (detail.kind === 'outsidePreFilterNodes') return true;
    if (detail.kind !== 'nodeSelectorMismatch') continue;
    for (let k = 0; k < detail.misses.length; k++) if (detail.misses[k]?.pinnedElsewhere) return true;
  }
  return false;
}

/** The nodes the judgement proves to fail (none when a PreFilter failure stops the pod). */
export function failing(judgement: Judgement): NodeVerdict[] {
  return failingIn(judgement).nodes;
}

/** The plugins that fail the failing nodes, and whether any failure is one preemption might resolve (code Unschedulable). */
export function failures(judgement: Judgement): { plugins: ReadonlySet<PluginName>; preemptible: boolean } {
  return failingIn(judgement);
}

/** Failing nodes whose every reason is `plugin`'s: the ones a change of that kind alone could free. Callers only read it. */
export function failingOnlyOn(judgement: Judgement, plugin: PluginName): readonly NodeVerdict[] {
  return failingIn(judgement).onlyOn.get(plugin) ?? noNodes;
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
