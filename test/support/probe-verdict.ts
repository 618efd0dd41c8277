// The scheduler's verdict for one node, read off the PodScheduled condition of a probe: a copy
// of the pod that only that node can take (test/e2e/harness/probe.ts). Read through the
// test-side reason table (scheduler-reasons.ts), never through the engine's message parser, so
// that captured expectations stay independent of what they check.
import type { PluginName } from '../../src/engine/names.js';
import { filterPluginOrder } from '../../src/messages/registry.js';
import { pluginOfReason, splitSchedulerMessage } from './scheduler-reasons.js';

/** A probe's PodScheduled condition (and where it was bound), as captured. */
export interface Verdict {
  status?: string;
  reason?: string;
  message?: string;
  nodeName?: string;
  nominatedNodeName?: string;
  error?: string;
}

/** The message of the nodes a pinned copy leaves out (NodeAffinity's PreFilter result). */
const PIN_REASON = "node(s) didn't satisfy plugin(s) [NodeAffinity]";

export type NodeVerdict = { plugin: string } | { preFilter: string };

/**
 * The plugin a pinned copy's message names for its node ('fits' when the copy was scheduled),
 * or the PreFilter plugin when the scheduler failed the pod before any node. Throws on
 * anything else (unknown wordings, more than one plugin for one node).
 */
export function nodeVerdict(node: string, v: Verdict, totalNodes: number, pin: 'affinity' | 'cordon' = 'affinity'): NodeVerdict {
  const fail = (msg: string): never => {
    throw new Error(`${node}: ${msg}`);
  };
  if (v.error) fail(`the probe failed: ${v.error}`);
  if (v.status === 'True') return { plugin: 'fits' };
  if (v.status !== 'False' || v.reason !== 'Unschedulable' || !v.message) fail(`unexpected probe verdict ${JSON.stringify(v)}`);
  const message = v.message ?? '';
  const split = splitSchedulerMessage(message);
  if (split.kind === 'preFilter') return { preFilter: split.plugin ?? fail(`no plugin for pre-filter message "${split.text}"`) };
  if (split.kind !== 'nodeCounts') fail(`not a per-node message: ${message}`);
  const reasons = split.kind === 'nodeCounts' ? split.reasons : [];
  const unknown = reasons.filter((r) => pluginOfReason(r.reason) === undefined);
  if (unknown.length > 0) fail(`reasons the test-side table does not know: ${unknown.map((r) => r.reason).join(' | ')}`);
  // The other nodes, left out by the pin: NodeAffinity's PreFilter result, or the cordons.
  const isPin = (r: { reason: string }) => (pin === 'affinity' ? r.reason === PIN_REASON : pluginOfReason(r.reason) === 'NodeUnschedulable');
  const pinnedCount = reasons.filter(isPin).reduce((n, r) => n + r.count, 0);
  // Cordon pins: the node itself may be cordoned too, its first failing plugin NodeUnschedulable.
  if (pin === 'cordon' && pinnedCount === totalNodes) return { plugin: 'NodeUnschedulable' };
  if (totalNodes > 1 && pinnedCount !== totalNodes - 1) fail(`expected ${totalNodes - 1} nodes left out by the pin, message says ${pinnedCount}: ${message}`);
  const own = reasons.filter((r) => !isPin(r));
  if (own.length === 0) fail(`nothing left after removing the pin's count: ${message}`);
  const plugins = [...new Set(own.map((r) => pluginOfReason(r.reason) ?? ''))];
  // The scheduler stops at a node's first failing plugin; only NodeResourcesFit speaks more
  // than once (one reason per missing resource), so one plugin is left.
  if (plugins.length !== 1) fail(`more than one plugin for one node (${plugins.join(', ')}): ${message}`);
  for (const r of own) if (r.count !== 1) fail(`reason "${r.reason}" counted ${r.count} times for one node`);
  return { plugin: plugins[0] ?? '' };
}

/**
 * Our first failing plugin for a node (`ours`, 'fits' when none), as comparable with the
 * scheduler's (`theirs`): where the scheduler names a plugin we could not check (a gap, or
 * DynamicResources, not modelled) and nothing we prove fails earlier in filter order, the node
 * is unproven on that very plugin, which agrees.
 */
export function comparableFirstPlugin(ours: string, unchecked: readonly string[], theirs: string): string {
  if (ours === theirs || theirs === 'fits' || !unchecked.includes(theirs)) return ours;
  const rank = (p: string) => filterPluginOrder.indexOf(p as PluginName);
  return ours === 'fits' || rank(ours) > rank(theirs) ? theirs : ours;
}
