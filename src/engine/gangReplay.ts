// Whether a gang could be placed together: its members replayed one after another, each on the
// first node where the filters pass once the members placed before it are bound there. The
// scheduler places a group in one cycle the same way, member by member, though it picks each
// node by score, not by order: this tells which members fit nowhere and what stops them, not
// which node each would get.
import type { V1Pod } from '@kubernetes/client-node';
import type { Snapshot } from '../snapshot/types.js';
import { buildContext } from './context.js';
import { judge } from './judge.js';
import type { PluginName } from './names.js';
import type { Rule } from './reasons.js';
import { groupPods, podGroupOf } from './story/gang.js';

export interface GangPlacement {
  /** Members bound already, then those placed here, with their node. */
  placed: { member: string; node: string; bound: boolean }[];
  /** Members no node takes once those before them are placed, with how many nodes each plugin refuses first. */
  unplaced: { member: string; firstPlugins: Partial<Record<PluginName, number>> }[];
  /** Members left out of the replay (more than `maxReplayed`). */
  notReplayed: number;
  /** The members placed (here) before the pod diagnosed: it is judged with them bound, as in the group's cycle. */
  placedBefore: string[];
}

export interface GangReplay {
  placement: GangPlacement;
  /** The snapshot when the pod diagnosed had its turn: the members before it bound to their nodes. */
  atTurn: Snapshot;
}

const maxReplayed = 20;

export function placeGang(rules: readonly Rule[], snapshot: Snapshot, target: V1Pod): GangReplay {
  const members = groupPods(snapshot, target.metadata?.namespace ?? 'default', podGroupOf(target) ?? '');
  const placed: GangPlacement['placed'] = members.filter((p) => p.spec?.nodeName).map((p) => ({ member: p.metadata?.name ?? '', node: p.spec?.nodeName ?? '', bound: true }));
  const unplaced: GangPlacement['unplaced'] = [];
  const waiting = members.filter((p) => !p.spec?.nodeName);
  let current = snapshot;
  let atTurn: Snapshot | undefined;
  let placedBefore: string[] = [];
  for (const pod of waiting.slice(0, maxReplayed)) {
    if (pod === target || (pod.metadata?.uid !== undefined && pod.metadata.uid === target.metadata?.uid)) {
      atTurn = current;
      placedBefore = placed.filter((p) => !p.bound).map((p) => p.member);
    }
    const judgement = judge(rules, buildContext(current, pod));
    const node = judgement.nodes.find((n) => n.verdict === 'fits');
    if (!node) {
      const firstPlugins: Partial<Record<PluginName, number>> = {};
      for (const n of judgement.nodes) {
        const first = n.reasons[0]?.plugin ?? judgement.preFilter[0]?.plugin;
        if (first) firstPlugins[first] = (firstPlugins[first] ?? 0) + 1;
      }
      unplaced.push({ member: pod.metadata?.name ?? '', firstPlugins });
      continue;
    }
    placed.push({ member: pod.metadata?.name ?? '', node: node.name, bound: false });
    // Bound there for the members after it: a new list of pods, so the node index is built anew.
    const bound = { ...pod, spec: { ...pod.spec, containers: pod.spec?.containers ?? [], nodeName: node.name } };
    current = { ...current, objects: { ...current.objects, pods: current.objects.pods.map((p) => (p === pod ? bound : p)) } };
  }
  return { placement: { placed, unplaced, notReplayed: Math.max(0, waiting.length - maxReplayed), placedBefore }, atTurn: atTurn ?? snapshot };
}
