// What each filter plugin checks, in words, for explaining a scheduler message when the
// nodes themselves could not be read.
import type { PluginName } from '../engine/plugins.js';

export const pluginPurpose: Record<PluginName, string> = {
  NodeUnschedulable: 'the node is cordoned (spec.unschedulable)',
  NodeName: 'the pod names another node in spec.nodeName',
  TaintToleration: 'the node has a NoSchedule/NoExecute taint the pod does not tolerate',
  NodeAffinity: "the node's labels do not match the pod's nodeSelector or required node affinity",
  NodePorts: 'a host port the pod needs is already taken on the node',
  NodeResourcesFit: "the node's free allocatable is less than the pod's request",
  VolumeRestrictions: 'a volume the pod uses is already in use in a way that excludes this node',
  NodeVolumeLimits: "the node's CSI volume attach limit would be exceeded",
  VolumeBinding: "a claim's volume cannot be bound or used on the node (PV node affinity, no matching PV)",
  VolumeZone: "a bound volume's zone does not match the node's zone",
  PodTopologySpread: "placing the pod on the node would break a topology spread constraint's maxSkew",
  InterPodAffinity: 'pod affinity or anti-affinity (the pod\'s own, or an existing pod\'s) rules the node out',
  DynamicResources: 'the node cannot satisfy the pod\'s resource claims (DRA)',
};
