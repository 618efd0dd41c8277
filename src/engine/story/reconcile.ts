// The autoscaler's account beside our replay of the existing nodes. cluster-autoscaler decides
// whether a new node would help by running the scheduler's own filter plugins on a template node
// of each node group (its simulator, simulator/framework), so the reasons of NotTriggerScaleUp
// are the scheduler's filter messages about those templates ("1 node(s) had untolerated
// taint(s)", "2 node(s) didn't match Pod's node affinity/selector"), counted per node group, beside
// its own reasons for skipping a group (core/scaleup/orchestrator/skippedreasons.go: "max node
// group size reached", "in backoff after failed scale-up", "not ready for scale-up"; "max total
// nodes in cluster reached"). The scheduler's messages are mapped to plugins with the scheduler
// catalog, the same that reads FailedScheduling; our replay names the plugins that fail on the
// existing nodes. Where both name a plugin they agree; a plugin only the autoscaler names fails
// on its templates but on no existing node, so what keeps the pod off existing nodes is
// something else (both are shown).
import type { NodeVerdict } from '../judge.js';
import type { PluginName } from '../names.js';
import { wordingFor, type SchedulerCatalog } from '../scheduler-message/catalog.js';

/** cluster-autoscaler's own reasons for adding no node from a group, which are no scheduler plugin's. */
export type AutoscalerOwnReason = 'maxNodeGroupSize' | 'backoff' | 'notReady' | 'maxClusterResource' | 'maxTotalNodes';

const ownReasons: readonly [RegExp, AutoscalerOwnReason][] = [
  [/^max node group size reached$/, 'maxNodeGroupSize'],
  [/^in backoff after failed scale-up$/, 'backoff'],
  [/^not ready for scale-up$/, 'notReady'],
  [/^max cluster .+ limits? reached$/, 'maxClusterResource'],
  [/^max total nodes in cluster reached$/, 'maxTotalNodes'],
];

export interface MappedReason {
  reason: string;
  /** How many node groups gave it (cluster-autoscaler). */
  count?: number;
  /** The filter plugin whose message it is, on the autoscaler's template nodes. */
  plugin?: PluginName;
  /** Or the autoscaler's own reason. */
  own?: AutoscalerOwnReason;
}

export interface AutoscalerReconciliation {
  /** Existing nodes where our replay finds the pod fits now. */
  fitsNow: string[];
  /** The autoscaler's reasons, each mapped to a plugin or to its own kind (neither: a wording not known). */
  reasons: MappedReason[];
  /** Per plugin, how many existing nodes fail it in our replay (any of their reasons). */
  replay: Partial<Record<PluginName, number>>;
  /** Plugins both name. */
  agreeOn: PluginName[];
  /** Plugins only the autoscaler names: its templates fail them, no existing node does. */
  autoscalerOnly: PluginName[];
  /** Plugins only our replay names: existing nodes fail them, the templates do not (or were not said to). */
  replayOnly: PluginName[];
}

function mapAutoscalerReason(catalog: SchedulerCatalog, r: { reason: string; count?: number }): MappedReason {
  const own = ownReasons.find(([pattern]) => pattern.test(r.reason))?.[1];
  if (own) return { ...r, own };
  const plugin = wordingFor(catalog, r.reason)?.plugin;
  return plugin ? { ...r, plugin } : { ...r };
}

export function reconcile(catalog: SchedulerCatalog, reasons: readonly { reason: string; count?: number }[], nodes: readonly NodeVerdict[]): AutoscalerReconciliation {
  const mapped = reasons.map((r) => mapAutoscalerReason(catalog, r));
  const replay: Partial<Record<PluginName, number>> = {};
  for (const node of nodes) {
    for (const plugin of new Set(node.reasons.map((r) => r.plugin))) replay[plugin] = (replay[plugin] ?? 0) + 1;
  }
  const order = (plugins: Iterable<PluginName>) => {
    const named = new Set(plugins);
    return catalog.plugins.filter((p) => named.has(p));
  };
  const theirs = new Set(mapped.flatMap((m) => (m.plugin ? [m.plugin] : [])));
  const ours = new Set(Object.keys(replay) as PluginName[]);
  return {
    fitsNow: nodes.filter((n) => n.verdict === 'fits').map((n) => n.name),
    reasons: mapped,
    replay,
    agreeOn: order([...theirs].filter((p) => ours.has(p))),
    autoscalerOnly: order([...theirs].filter((p) => !ours.has(p))),
    replayOnly: order([...ours].filter((p) => !theirs.has(p))),
  };
}
