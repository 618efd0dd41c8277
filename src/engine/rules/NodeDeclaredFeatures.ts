// NodeDeclaredFeatures: some fields of a pod's spec need a node whose kubelet says it supports
// them. The kubelet lists what it supports in node.status.declaredFeatures; a pod that uses one
// of those fields fits only nodes that list the feature (KEP-5328). A node whose kubelet predates
// the feature, or has its gate off, lists nothing, and no amount of preemption changes that.
//
// Upstream (v1.37.2): pkg/scheduler/framework/plugins/nodedeclaredfeatures/nodedeclaredfeatures.go.
// PreFilter asks the shared library (k8s.io/component-helpers/nodedeclaredfeatures,
// Framework.InferForPodScheduling) which registered features the pod's spec needs, and returns
// Skip when none; Filter fails a node, UnschedulableAndUnresolvable, unless every one is among
// the node's declared features (FeatureSet.IsSubset of NodeInfo.DeclaredFeatures, which
// framework/types.go SetNode fills with TryMap(node.Status.DeclaredFeatures): names the registry
// does not know are dropped; the apiserver keeps the list sorted and without duplicates,
// validation.go validateNodeDeclaredFeatures, so membership is all that matters).
//
// The registry (component-helpers v0.37.2 nodedeclaredfeatures/features/registry.go, AllFeatures)
// holds nine features; the scheduler's version is above no feature's MaxVersion (all nil). Six
// only ever constrain updates (the NodeDeclaredFeatureValidator admission plugin) or nothing.
// Three constrain scheduling, below, each inferred from the spec alone (InferForScheduling).
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { passed, type FilterRule } from '../model.js';

/** A feature the pod needs, and the field of its spec that makes it need it. */
export interface RequiredFeature {
  feature: string;
  /** Where the spec asks for it, as a path (`spec.containers[app].restartPolicyRules[0]`). */
  field: string;
}

export interface NodeDeclaredFeaturesDetail {
  kind: 'featureNotDeclared';
  /** The pod's required features the node does not declare, in the registry's (name) order. */
  missing: RequiredFeature[];
  /** node.status.declaredFeatures as the node lists it; [] when the field is absent. */
  declared: string[];
}

// VolumeMount.bindMountOptions is newer than client-node's V1VolumeMount (k8s.io/api v0.37
// core/v1 types.go, alpha gate VolumeBindMountOptions); read as the API serves it.
type Mount = { name?: string; bindMountOptions?: string[] };

// A dump may hold anything where a list belongs: what is not a list asks for nothing.
const listOf = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

const containersOf = (pod: V1Pod, list: 'containers' | 'initContainers' | 'ephemeralContainers') =>
  listOf<V1Container>(pod.spec?.[list]).map((c) => ({ c, at: `spec.${list}[${c?.name}]` }));

/** The first field of the pod that needs the feature, or undefined when none does. */
type Infer = (pod: V1Pod) => string | undefined;

// restartallcontainers/restart_all_containers.go: a restart rule with action
// RestartAllContainers on a container or an init container (ephemeral ones are not looked at).
const restartAllContainers: Infer = (pod) => {
  for (const { c, at } of [...containersOf(pod, 'containers'), ...containersOf(pod, 'initContainers')]) {
    const i = listOf<{ action?: unknown }>(c?.restartPolicyRules).findIndex((r) => r?.action === 'RestartAllContainers');
    if (i >= 0) return `${at}.restartPolicyRules[${i}]`;
  }
  return undefined;
};

// usernamespaceshostnetwork/user_namespaces_host_network.go: host networking in a user namespace.
const userNamespacesHostNetwork: Infer = (pod) => (pod.spec?.hostNetwork === true && pod.spec.hostUsers === false ? 'spec.hostUsers' : undefined);

// volumebindmountoptions/feature.go: bindMountOptions on any mount of any container, ephemeral
// ones included.
const volumeBindMountOptions: Infer = (pod) => {
  const all = [...containersOf(pod, 'containers'), ...containersOf(pod, 'initContainers'), ...containersOf(pod, 'ephemeralContainers')];
  for (const { c, at } of all) {
    const i = listOf<Mount>(c?.volumeMounts).findIndex((m) => listOf(m?.bindMountOptions).length > 0);
    if (i >= 0) return `${at}.volumeMounts[${i}].bindMountOptions`;
  }
  return undefined;
};

/**
 * The registered features whose InferForScheduling can be true, in the order the library keeps
 * its registry (sorted by name, framework.go New). The other six (DRANodeAllocatableResources,
 * DRAOptionalNodeOperations, ExtendWebSocketsToKubelet, InPlacePodLevelResourcesVerticalScaling,
 * InPlacePodVerticalScalingInitContainers, InPlacePodVerticalScalingMemoryBackedVolumes) return
 * false there: a pending pod never requires them.
 */
const schedulingFeatures: readonly { name: string; infer: Infer }[] = [
  { name: 'RestartAllContainersOnContainerExits', infer: restartAllContainers },
  { name: 'UserNamespacesHostNetworkSupport', infer: userNamespacesHostNetwork },
  { name: 'VolumeBindMountOptions', infer: volumeBindMountOptions },
];

/** The features `pod` requires of a node (InferForPodScheduling), with the field behind each. */
export function requiredFeatures(pod: V1Pod): RequiredFeature[] {
  return schedulingFeatures.flatMap(({ name, infer }) => {
    const field = infer(pod);
    return field === undefined ? [] : [{ feature: name, field }];
  });
}

// Asked on every node: read once per pod object (a fix's replay that edits the pod has a copy).
const requiredOf = new WeakMap<V1Pod, RequiredFeature[]>();

function required(pod: V1Pod): RequiredFeature[] {
  let found = requiredOf.get(pod);
  if (!found) {
    found = requiredFeatures(pod);
    requiredOf.set(pod, found);
  }
  return found;
}

const rule: FilterRule<'NodeDeclaredFeatures', NodeDeclaredFeaturesDetail> = {
  meta: { name: 'NodeDeclaredFeatures', kinds: ['featureNotDeclared'], since: 36 },
  // The pod's spec and the node object decide.
  needs: () => [],
  // Nothing required: upstream's Skip.
  preFilter: ({ pod }) => (required(pod.pod).length === 0 ? { skip: true } : {}),
  filter({ pod }, node) {
    const wanted = required(pod.pod);
    if (wanted.length === 0) return passed;
    const declared = listOf<string>(node.node.status?.declaredFeatures);
    const missing = wanted.filter((r) => !declared.includes(r.feature));
    if (missing.length === 0) return passed;
    return [{ plugin: 'NodeDeclaredFeatures', code: 'UnschedulableAndUnresolvable', detail: { kind: 'featureNotDeclared', missing, declared: [...declared] } }];
  },
};

export default rule;
