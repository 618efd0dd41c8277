// The scheduler's own reason strings, mapped to the plugin that prints them: a table kept apart
// from the engine's message catalog (src/engine/scheduler-message/) on purpose. Captured
// expectations are read through this table, the engine's answers through its catalog, so one
// wrong entry cannot corrupt both the expectation and the answer. Each string is copied from
// kube-scheduler's source (pkg/scheduler/framework/plugins/<plugin>/, the constant named), for
// the versions whose messages the fixtures hold (v1.34 and v1.37, and the older wordings seen
// in the message-v1-* scenarios).

/** Reasons printed after a count ("2 Insufficient cpu"): exact strings, then patterns. */
const exact: Record<string, string> = {
  // nodeunschedulable ErrReasonUnschedulable
  'node(s) were unschedulable': 'NodeUnschedulable',
  // nodename ErrReason
  "node(s) didn't match the requested node name": 'NodeName',
  // tainttoleration: v1.35+ (and late v1.34 patches); ErrReasonNotMatch of old releases
  'node(s) had untolerated taint(s)': 'TaintToleration',
  "node(s) had taints that the pod didn't tolerate": 'TaintToleration',
  // nodeaffinity ErrReasonPod, errReasonEnforced
  "node(s) didn't match Pod's node affinity/selector": 'NodeAffinity',
  "node(s) didn't match scheduler-enforced node affinity": 'NodeAffinity',
  // nodeports ErrReason
  "node(s) didn't have free ports for the requested pod ports": 'NodePorts',
  // noderesources fit.go
  'Too many pods': 'NodeResourcesFit',
  // volumerestrictions ErrReasonDiskConflict, ErrReasonReadWriteOncePodConflict
  'node(s) had no available disk': 'VolumeRestrictions',
  'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode': 'VolumeRestrictions',
  // nodevolumelimits ErrReasonMaxVolumeCountExceeded
  'node(s) exceed max volume count': 'NodeVolumeLimits',
  // volumebinding ErrReasonBindConflict, ErrReasonNodeConflict (v1.33+; "had volume node
  // affinity conflict" before), ErrReasonNotEnoughSpace, ErrReasonPVNotExist
  "node(s) didn't find available persistent volumes to bind": 'VolumeBinding',
  "node(s) didn't match PersistentVolume's node affinity": 'VolumeBinding',
  'node(s) had volume node affinity conflict': 'VolumeBinding',
  'node(s) did not have enough free storage': 'VolumeBinding',
  'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)': 'VolumeBinding',
  // volumezone ErrReasonConflict
  'node(s) had no available volume zone': 'VolumeZone',
  // podtopologyspread ErrReasonConstraintsNotMatch, ErrReasonNodeLabelNotMatch
  "node(s) didn't match pod topology spread constraints": 'PodTopologySpread',
  "node(s) didn't match pod topology spread constraints (missing required label)": 'PodTopologySpread',
  // interpodaffinity ErrReasonExistingAntiAffinityRulesNotMatch, ErrReasonAffinityRulesNotMatch,
  // ErrReasonAntiAffinityRulesNotMatch
  "node(s) didn't satisfy existing pods anti-affinity rules": 'InterPodAffinity',
  "node(s) didn't match pod affinity rules": 'InterPodAffinity',
  "node(s) didn't match pod anti-affinity rules": 'InterPodAffinity',
  // dynamicresources Filter, when the allocator finds no devices for the node
  'cannot allocate all claims': 'DynamicResources',
  'resourceclaim not available on the node': 'DynamicResources',
  // nodedeclaredfeatures errReasonUnsatisfiedRequirements (v1.36+)
  "node(s) didn't match Pod's required features": 'NodeDeclaredFeatures',
};

const patterns: [RegExp, string][] = [
  // noderesources fit.go: "Insufficient %v"
  [/^Insufficient \S+$/, 'NodeResourcesFit'],
  // tainttoleration v1.25-v1.34: "node(s) had untolerated taint {%s: %s}"; v1.18-v1.24
  [/^node\(s\) had untolerated taint \{.*\}$/, 'TaintToleration'],
  [/^node\(s\) had taint \{.*\}, that the pod didn't tolerate$/, 'TaintToleration'],
  // framework: nodes a PreFilter result left out ("didn't satisfy plugin(s) [NodeAffinity]")
  [/^node\(s\) didn't satisfy plugin\(s\) \[(\w+)(, \w+)*\]$/, '$1'],
];

/** Whole-pod PreFilter messages (no per-node counts). */
const preFilterPatterns: [RegExp, string][] = [
  // volumebinding PreFilter
  [/^pod has unbound immediate PersistentVolumeClaims/, 'VolumeBinding'],
  [/^persistentvolumeclaim "[^"]*" is being deleted/, 'VolumeBinding'],
  [/^persistentvolumeclaim "[^"]*" bound to non-existent persistentvolume/, 'VolumeBinding'],
  // volumerestrictions PreFilter (the PVC lister's NotFound)
  [/^persistentvolumeclaim "[^"]*" not found/, 'VolumeRestrictions'],
  // nodeaffinity PreFilter
  [/^pod affinity terms conflict/, 'NodeAffinity'],
  // dynamicresources PreFilter
  [/^pod "[^"]*": ResourceClaim not created yet/, 'DynamicResources'],
];

/** The plugin that prints `reason`, or undefined when the table does not know it. */
export function pluginOfReason(reason: string): string | undefined {
  const known = exact[reason];
  if (known) return known;
  for (const [pattern, plugin] of patterns) {
    const m = pattern.exec(reason);
    if (m) return plugin.startsWith('$') ? m[1] : plugin;
  }
  return undefined;
}

export interface CountedReason {
  count: number;
  reason: string;
}

export type SplitMessage =
  | { kind: 'nodeCounts'; total: number; reasons: CountedReason[] }
  | { kind: 'preFilter'; total: number; text: string; plugin: string | undefined }
  | { kind: 'other'; text: string };

/**
 * Splits "0/N nodes are available: 2 Insufficient cpu, 1 node(s) ... . preemption: ..." into
 * its counted reasons (the part before the first ". " that ends the list), or names the
 * PreFilter message that replaced them.
 */
export function splitSchedulerMessage(message: string): SplitMessage {
  const head = /^0\/(\d+) nodes are available: /.exec(message);
  if (!head) return { kind: 'other', text: message };
  const total = Number(head[1]);
  const rest = message.slice(head[0].length);
  // The list ends at ". " before "preemption:" / "no new claims" (or at the final period).
  const end = rest.search(/\. (preemption:|no new claims)|\.$/);
  const list = end >= 0 ? rest.slice(0, end) : rest;
  const items = list.split(/, (?=\d+ )/);
  if (items.every((item) => /^\d+ /.test(item))) {
    return {
      kind: 'nodeCounts',
      total,
      reasons: items.map((item) => {
        const space = item.indexOf(' ');
        return { count: Number(item.slice(0, space)), reason: item.slice(space + 1) };
      }),
    };
  }
  const pre = preFilterPatterns.find(([pattern]) => pattern.test(list));
  return { kind: 'preFilter', total, text: list, plugin: pre?.[1] };
}
