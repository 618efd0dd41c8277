// The engine's rules, one per plugin, in filter order (names.ts): what a diagnosis replays, and
// where the union of every reason's detail comes from. The English for each is in
// src/messages/rules/<Plugin>.ts, registered against these names in src/messages/registry.ts.
import type { Detail, FilterRule } from '../model.js';
import { pluginNames, type PluginName } from '../names.js';
import DynamicResources from './DynamicResources.js';
import InterPodAffinity from './InterPodAffinity.js';
import NodeAffinity from './NodeAffinity.js';
import NodeDeclaredFeatures from './NodeDeclaredFeatures.js';
import NodeName from './NodeName.js';
import NodePorts from './NodePorts.js';
import NodeResourcesFit from './NodeResourcesFit.js';
import NodeUnschedulable from './NodeUnschedulable.js';
import NodeVolumeLimits from './NodeVolumeLimits.js';
import PodTopologySpread from './PodTopologySpread.js';
import TaintToleration from './TaintToleration.js';
import VolumeBinding from './VolumeBinding.js';
import VolumeRestrictions from './VolumeRestrictions.js';
import VolumeZone from './VolumeZone.js';

/** By plugin name: the compiler checks every name has its rule, and each rule its name. */
const byName = {
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
  NodeDeclaredFeatures,
} satisfies { [P in PluginName]: FilterRule<P, Detail> };

type DetailOf<R> = R extends FilterRule<string, infer D> ? D : never;

/** Every structured reason a rule can give, by `kind`. */
export type ReasonDetail = DetailOf<(typeof byName)[PluginName]>;

/** A rule of any plugin, as the judge runs it. */
export type Rule = FilterRule<PluginName, ReasonDetail>;

/** Every rule, in filter order. */
export const rules: readonly Rule[] = pluginNames.map((name): Rule => byName[name] as Rule);
