// Every structured reason a rule can give, by `kind`. English is made from these in
// src/messages/, never in the rules.
import type { DynamicResourcesDetail } from './rules/DynamicResources.js';
import type { InterPodAffinityDetail } from './rules/InterPodAffinity.js';
import type { NodeAffinityDetail } from './rules/NodeAffinity.js';
import type { NodeNameDetail } from './rules/NodeName.js';
import type { NodePortsDetail } from './rules/NodePorts.js';
import type { InsufficientResourceDetail } from './rules/NodeResourcesFit.js';
import type { NodeUnschedulableDetail } from './rules/NodeUnschedulable.js';
import type { NodeVolumeLimitsDetail } from './rules/NodeVolumeLimits.js';
import type { PodTopologySpreadDetail } from './rules/PodTopologySpread.js';
import type { UntoleratedTaintDetail } from './rules/TaintToleration.js';
import type { VolumeBindingDetail } from './rules/VolumeBinding.js';
import type { VolumeRestrictionsDetail } from './rules/VolumeRestrictions.js';
import type { VolumeZoneDetail } from './rules/VolumeZone.js';

export type ReasonDetail =
  | NodeUnschedulableDetail
  | NodeNameDetail
  | UntoleratedTaintDetail
  | NodeAffinityDetail
  | NodePortsDetail
  | InsufficientResourceDetail
  | VolumeRestrictionsDetail
  | NodeVolumeLimitsDetail
  | VolumeBindingDetail
  | VolumeZoneDetail
  | PodTopologySpreadDetail
  | InterPodAffinityDetail
  | DynamicResourcesDetail;

export type ReasonKind = ReasonDetail['kind'];
