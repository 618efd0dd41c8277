// Every wording kube-scheduler has used, v1.20 to v1.37 (and a few older ones still seen in
// the wild), for the reasons it counts in FailedScheduling / PodScheduled messages. Each
// plugin's wordings live with its messages (src/messages/rules/<Plugin>.ts) and reach the
// engine through the registry (src/messages/registry.ts), which builds the catalog with
// `schedulerCatalog`; the framework's own wordings are below. The tables are explicit on
// purpose: wordings change between releases, so each entry says which releases print it and
// where it comes from (kubernetes/kubernetes, pkg/scheduler/framework/plugins/ unless said
// otherwise). Patterns are anchored and match the reason as printed after its count.
import type { PluginName, StatusCode } from '../names.js';

export interface Wording {
  /** Named groups become the reason's `detail` (resource, taint key/value, claim name, ...). */
  pattern: RegExp;
  /** Absent when the framework, not one plugin, speaks; see `pluginsGroup`. */
  plugin?: PluginName;
  code?: StatusCode;
  /** PreFilter reasons fail the pod before any node is looked at. */
  stage: 'filter' | 'preFilter';
  versions: string;
  /** v1.20–v1.21 InterPodAffinity printed a generic reason beside the specific one for the
   * same node, so the generic one is not a node of its own when both appear. */
  companion?: true;
  /** Detail the wording implies without naming it ("Too many pods" is the `pods` resource). */
  impliedDetail?: Record<string, string>;
}

/** A plugin's wording, as its messages module writes it; the registry adds the plugin. */
export type PluginWording = Omit<Wording, 'plugin'>;

/** A Filter reason: counted once per node. No code when the wording does not tell which. */
export const filterWording = (pattern: RegExp, code: StatusCode | undefined, versions: string): PluginWording => ({
  pattern,
  stage: 'filter',
  versions,
  ...(code ? { code } : {}),
});

/** A PreFilter reason: the pod fails before any node is looked at. */
export const preFilterWording = (pattern: RegExp, versions: string): PluginWording => ({
  // Every PreFilter wording is UnschedulableAndUnresolvable in current releases: no eviction
  // changes a missing claim or class, so preemption skips them.
  ...filterWording(pattern, 'UnschedulableAndUnresolvable', versions),
  stage: 'preFilter',
});

/** A claim or volume name as Go's %q prints it, captured as `claim`. */
export const quotedClaim = '"(?<claim>[^"]*)"';

const UU = 'UnschedulableAndUnresolvable';

// The framework speaks for no single plugin.
const frameworkWordings: readonly Wording[] = [
  // The framework's own words for nodes a PreFilterResult left out (schedule_one.go):
  // "node is filtered out by the prefilter result" (v1.24, PreFilterResult in PR #108648),
  // replaced by naming the plugins (PR #122251). NodeAffinity (matchFields metadata.name, as
  // DaemonSet pods have) and, v1.25-v1.31, VolumeBinding (bound local PVs) narrow nodes.
  filterWording(/^node is filtered out by the prefilter result$/, UU, 'v1.24-v1.29'),
  filterWording(/^node\(s\) didn't satisfy plugin\(s\) \[(?<plugins>[^\]]*)\]$/, UU, 'v1.30+'),
  // runtime/framework.go RunPreFilterPlugins: the PreFilterResults have no node in common.
  preFilterWording(/^node\(s\) didn't satisfy plugin\(s\) \[(?<plugins>[^\]]*)\] simultaneously$/, 'v1.24+'),
  preFilterWording(/^node\(s\) didn't satisfy plugin (?<plugins>\S+)$/, 'v1.24+'),
];

/** The scheduler's words the engine reads messages with: every plugin's, then the framework's. */
export interface SchedulerCatalog {
  /** The first that matches a reason wins. */
  readonly wordings: readonly Wording[];
  /** The plugins, in the scheduler's filter order. */
  readonly plugins: readonly PluginName[];
}

/** The catalog for these plugins, given in filter order with their wordings. */
export function schedulerCatalog(plugins: readonly { name: PluginName; wordings: readonly PluginWording[] }[]): SchedulerCatalog {
  return {
    wordings: [...plugins.flatMap((p) => p.wordings.map((w): Wording => ({ ...w, plugin: p.name }))), ...frameworkWordings],
    plugins: plugins.map((p) => p.name),
  };
}

/** The plugin a framework reason names ("didn't satisfy plugin(s) [NodeAffinity]"), when just one. */
export function pluginsGroup(catalog: SchedulerCatalog, detail: Record<string, string> | undefined): PluginName | undefined {
  const [only, ...more] = detail?.['plugins']?.split(' ').filter(Boolean) ?? [];
  return more.length === 0 ? catalog.plugins.find((plugin) => plugin === only) : undefined;
}

// framework/preemption/preemption.go and defaultpreemption/default_preemption.go, printed
// after "preemption: 0/N nodes are available: " since PR #107775 (v1.24); PR #108705 (also
// v1.24) made the per-node "No victims found on node X for preemptor pod Y" countable.
export const preemptionWords = {
  notHelpful: 'Preemption is not helpful for scheduling',
  noVictims: 'No preemption victims found for incoming pod',
} as const;

// DefaultPreemption's status when it found a node and evicts victims, v1.37+ (PR #140180:
// fwk.NewStatus(fwk.Success, fmt.Sprintf("found a potential placement for pod on node %v,
// preempting %d victims", ...))). Before v1.37 a successful preemption left no PostFilter words.
// The message has no final period.
export const preemptionPlacement = /^found a potential placement for pod on node (?<node>\S+), preempting (?<victims>\d+) victims$/;

/** What can follow "preemption: ", besides the per-node counts, and since when. */
export const preemptionStatements: readonly { pattern: RegExp; versions: string }[] = [
  { pattern: /^0\/\d+ nodes are available: /, versions: 'v1.24+' },
  // PodEligibleToPreemptOthers.
  { pattern: /^not eligible due to preemptionPolicy=Never\.?$/, versions: 'v1.24+' },
  { pattern: /^not eligible due to a terminating pod on the nominated node\.?$/, versions: 'v1.24+' },
  { pattern: preemptionPlacement, versions: 'v1.37+' },
];

// Other PostFilter plugins speak before preemption, joined with ", " (RunPostFilterPlugins):
// DynamicResources' PostFilter, in the default profile since DRA went GA (v1.34). From v1.37 it
// says nothing for a pod without claims, so "no new claims to deallocate" is gone from every
// message (seen on a real v1.37.2 control plane); it still speaks for pods with claims.
export const postFilterWords: readonly string[] = [
  'no new claims to deallocate',
  'still not schedulable',
  'deallocation of ResourceClaim completed',
  'deletion of ResourceClaim completed',
  // v1.34 after a PreFilter rejection: DynamicResources' PostFilter finds no state of its own
  // (its PreFilter never ran) and answers with the CycleState lookup's error, "not found".
  'not found',
];

// core/v1 PodReasonSchedulingGated's message, set by the apiserver (pkg/registry/core/pod).
export const gatedMessage = 'Scheduling is blocked due to non-empty scheduling gates';
// scheduler.go / schedule_one.go ErrNoNodesAvailable: the cluster has no nodes at all.
export const noNodesMessage = 'no nodes available to schedule pods';

/** The catalog entry a reason text (as printed after its count) matches, first match wins. */
export function wordingFor(catalog: SchedulerCatalog, text: string): Wording | undefined {
  return catalog.wordings.find((wording) => wording.pattern.test(text));
}
