// The registry: every filter plugin of the scheduler's default profile, in the order the newest
// release's scheduler runs them (v1.37, pkg/scheduler/apis/config/v1/default_plugins.go; a rule's
// meta.movedIn puts it back where an older release ran it, engine/release.ts). The scheduler
// stops at a node's first failing plugin, so this order decides which reason it reports for
// that node. Adding a plugin: its rule (src/engine/rules/<Plugin>.ts), its descriptor
// (src/messages/rules/<Plugin>.ts), and one line here, where it runs; see ARCHITECTURE.md.
//
// Everything else about the plugins is derived from this list: their names and order, the
// union of the details their rules return, the scheduler's wordings the engine reads messages
// with, and the English the reporters print. The engine is given `ruleSet` and imports no
// plugin, so that it never loads English.
import type { Detail, FilterRule, RuleSet } from './engine/model.js';
import { schedulerCatalog } from './engine/scheduler-message/catalog.js';
import DynamicResources from './messages/rules/DynamicResources.js';
import InterPodAffinity from './messages/rules/InterPodAffinity.js';
import NodeAffinity from './messages/rules/NodeAffinity.js';
import NodeDeclaredFeatures from './messages/rules/NodeDeclaredFeatures.js';
import NodeName from './messages/rules/NodeName.js';
import NodePorts from './messages/rules/NodePorts.js';
import NodeResourcesFit from './messages/rules/NodeResourcesFit.js';
import NodeUnschedulable from './messages/rules/NodeUnschedulable.js';
import NodeVolumeLimits from './messages/rules/NodeVolumeLimits.js';
import PodTopologySpread from './messages/rules/PodTopologySpread.js';
import TaintToleration from './messages/rules/TaintToleration.js';
import VolumeBinding from './messages/rules/VolumeBinding.js';
import VolumeRestrictions from './messages/rules/VolumeRestrictions.js';
import VolumeZone from './messages/rules/VolumeZone.js';
import type { HeadlineGroup, KindTable, Plugin } from './messages/plugin.js';

export const plugins = [
  NodeName,
  NodeUnschedulable,
  TaintToleration,
  NodeAffinity,
  NodePorts,
  NodeResourcesFit,
  VolumeRestrictions,
  NodeVolumeLimits,
  VolumeBinding,
  VolumeZone,
  PodTopologySpread,
  InterPodAffinity,
  DynamicResources,
  // Appended after DefaultBinder when its gate is on (default_plugins.go applyFeatureGates), so
  // after DynamicResources, which is inserted before DefaultPreemption: the last filter.
  NodeDeclaredFeatures,
] as const;

type Registered = (typeof plugins)[number];
type DetailOf<T> = T extends Plugin<string, infer D> ? D : never;

export type PluginName = Registered['name'];
/** Every structured reason a rule can give, by `kind`. */
export type ReasonDetail = DetailOf<Registered>;
export type ReasonKind = ReasonDetail['kind'];

/** The plugin names, in filter order. */
export const filterPluginOrder: readonly PluginName[] = plugins.map((p) => p.name);

/** What the engine is given: the rules, in filter order, and the scheduler's wordings for them. */
export const ruleSet: RuleSet = {
  rules: plugins.map((p): FilterRule => p.rule as FilterRule),
  catalog: schedulerCatalog(plugins),
};

/** The descriptor of a plugin, by name. */
export function pluginNamed(name: PluginName): Plugin<PluginName, ReasonDetail> {
  return byName.get(name) as Plugin<PluginName, ReasonDetail>;
}

const byName = new Map<PluginName, Registered>(plugins.map((p) => [p.name, p]));

// Kinds are unique across plugins (ReasonDetail is discriminated by `kind`), so one table each.
const byKind = (table: (p: Registered) => KindTable<Detail>) =>
  new Map<string, (detail: Detail) => string>(plugins.flatMap((p) => Object.entries(table(p)) as [string, (detail: Detail) => string][]));

/** One line of English per kind of detail, across every plugin. */
export const messageOf = byKind((p) => p.messages as KindTable<Detail>);
/** A few words per kind of detail, for a table cell. */
export const shortOf = byKind((p) => p.short as KindTable<Detail>);
/** How the headline groups and tells each kind of detail, where its descriptor says. */
/** The few words a headline says of a PreFilter failure, where its descriptor gives them. */
export const preFilterCauseOf = new Map<string, (detail: Detail) => string>(
  plugins.flatMap((p) => Object.entries((p as { preFilterCause?: Record<string, (detail: Detail) => string> }).preFilterCause ?? {})),
);

export const headlineOf = new Map<string, HeadlineGroup<Detail>>(
  plugins.flatMap((p) => Object.entries(p.headline ?? {}) as [string, HeadlineGroup<Detail>][]),
);
