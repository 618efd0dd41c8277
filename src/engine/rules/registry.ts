// Every filter rule, in the scheduler's filter order (plugins.ts). Adding a rule: one file in
// this folder, one line here, one scenario folder under test/scenarios/.
import type { FilterRule } from '../model.js';
import { filterPluginOrder } from '../plugins.js';
import DynamicResources from './DynamicResources.js';
import InterPodAffinity from './InterPodAffinity.js';
import NodeAffinity from './NodeAffinity.js';
import NodeName from './NodeName.js';
import NodePorts from './NodePorts.js';
import NodeResourcesFit from './NodeResourcesFit.js';
import NodeUnschedulable from './NodeUnschedulable.js';
import NodeVolumeLimits from './NodeVolumeLimits.js';
import PodTopologySpread from './PodTopologySpread.js';
import VolumeBinding from './VolumeBinding.js';
import VolumeRestrictions from './VolumeRestrictions.js';
import VolumeZone from './VolumeZone.js';
import TaintToleration from './TaintToleration.js';

const rules: FilterRule[] = [
  NodeUnschedulable,
  NodeName,
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
];

// The list must follow the scheduler's order; a mistake here would change "the first reason".
rules.forEach((rule, index) => {
  if (rule.plugin !== filterPluginOrder[index]) throw new Error(`rule ${rule.plugin} is out of the scheduler's filter order`);
});

export const filterRules: readonly FilterRule[] = rules;
