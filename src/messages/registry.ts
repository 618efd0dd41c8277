// The registry: each filter plugin's descriptor (its rule and its words), in the order the
// engine names them (src/engine/names.ts, the scheduler's filter order). Adding a plugin: its
// name there, its rule (src/engine/rules/<Plugin>.ts, listed in rules/index.ts), its descriptor
// (src/messages/rules/<Plugin>.ts), and one line here; see ARCHITECTURE.md.
//
// Derived from this list: the scheduler's wordings the engine reads messages with, and the
// English the reporters print. The engine's types come from the engine (names.ts, reasons.ts);
// it is given `ruleSet` and imports no descriptor, so that it never loads English.
import type { Detail } from '../engine/model.js';
import { pluginNames, type PluginName } from '../engine/names.js';
import type { ReasonDetail, RuleSet } from '../engine/reasons.js';
import { rules } from '../engine/rules/index.js';
import { schedulerCatalog } from '../engine/scheduler-message/catalog.js';
import DynamicResources from './rules/DynamicResources.js';
import InterPodAffinity from './rules/InterPodAffinity.js';
import NodeAffinity from './rules/NodeAffinity.js';
import NodeDeclaredFeatures from './rules/NodeDeclaredFeatures.js';
import NodeName from './rules/NodeName.js';
import NodePorts from './rules/NodePorts.js';
import NodeResourcesFit from './rules/NodeResourcesFit.js';
import NodeUnschedulable from './rules/NodeUnschedulable.js';
import NodeVolumeLimits from './rules/NodeVolumeLimits.js';
import PodTopologySpread from './rules/PodTopologySpread.js';
import TaintToleration from './rules/TaintToleration.js';
import VolumeBinding from './rules/VolumeBinding.js';
import VolumeRestrictions from './rules/VolumeRestrictions.js';
import VolumeZone from './rules/VolumeZone.js';
import type { HeadlineGroup, KindTable, Plugin } from './plugin.js';

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

// The words are registered against the engine's names, in its order: a plugin missing, extra
// or out of place here does not compile.
type NamesOf<T extends readonly { name: string }[]> = { readonly [K in keyof T]: T[K]['name'] };
const inFilterOrder: NamesOf<typeof plugins> = pluginNames;

export type { PluginName, ReasonDetail };

/** The plugin names, in filter order. */
export const filterPluginOrder: readonly PluginName[] = inFilterOrder;

/** What the engine is given: the rules, in filter order, and the scheduler's wordings for them. */
export const ruleSet: RuleSet = {
  rules,
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
/** The few words a headline says of a PreFilter failure, where its descriptor gives them. */
export const preFilterCauseOf = new Map<string, (detail: Detail) => string>(
  plugins.flatMap((p) => Object.entries((p as { preFilterCause?: Record<string, (detail: Detail) => string> }).preFilterCause ?? {})),
);

/** How the headline groups and tells each kind of detail, where its descriptor says. */
export const headlineOf = new Map<string, HeadlineGroup<Detail>>(
  plugins.flatMap((p) => Object.entries(p.headline ?? {}) as [string, HeadlineGroup<Detail>][]),
);
