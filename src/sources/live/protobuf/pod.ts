// A page of pods in the apiserver's protobuf encoding, decoded straight into the records the
// live reader keeps of pods on nodes (compact.ts, compactNeighbour): the fields named there and
// nothing else. Everything else (managedFields, annotations, env, probes, conditions, ...) is
// skipped by its length, never decoded, which is why this beats JSON.parse on large lists.
//
// The record must equal compactNeighbour(the same pod read as JSON), so JSON's rules are kept:
// the apiserver's JSON omits an empty string, zero number or false of an `omitempty` field, but
// its protobuf writes every non-pointer field, so those are dropped here; fields without
// `omitempty` (a container's name, a requirement's key) and pointer fields (priority: 0) stay
// whatever they hold. Times are RFC 3339 in seconds, as metav1.Time writes them; quantities
// their canonical string. Field numbers: k8s.io/api core/v1 and k8s.io/apimachinery meta/v1
// generated.proto. test/e2e/protobuf.test.ts compares both encodings on a real apiserver.
// The readers of fields that pods and nodes share (times, maps, JSON's omitempty) are in fields.ts.
import type {
  V1Affinity,
  V1Container,
  V1ContainerPort,
  V1ContainerStatus,
  V1LabelSelector,
  V1LabelSelectorRequirement,
  V1NodeSelectorRequirement,
  V1NodeSelectorTerm,
  V1OwnerReference,
  V1Pod,
  V1PodAffinityTerm,
  V1PodResourceClaim,
  V1PodResourceClaimStatus,
  V1ResourceRequirements,
  V1Volume,
  V1WeightedPodAffinityTerm,
} from '@kubernetes/client-node';
import { readVolumeSources, type JsonField } from '../compact.js';
import { addEntry, objectMessage, push, setNonEmpty, time, type Obj, type Pass } from './fields.js';
import { type Reader, WireType } from './wire.js';

function resourceRequirements(r: Reader, end: number, pass: Pass): V1ResourceRequirements {
  const out: Obj = {};
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.LengthDelimited) out['limits'] = addEntry(out['limits'] as Obj | undefined, r, pass, true);
    else if (field === 2 && wire === WireType.LengthDelimited) out['requests'] = addEntry(out['requests'] as Obj | undefined, r, pass, true);
    else if (field === 3 && wire === WireType.LengthDelimited) push(out, 'claims', resourceClaim(r, r.enter(), pass));
    else r.skip(wire);
  }
  return out as V1ResourceRequirements;
}

function resourceClaim(r: Reader, end: number, pass: Pass): Obj {
  const out: Obj = { name: '' };
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.LengthDelimited) out['name'] = pass.intern.read(r);
    else if (field === 2 && wire === WireType.LengthDelimited) setNonEmpty(out, 'request', pass.intern.read(r));
    else r.skip(wire);
  }
  return out;
}

function containerPort(r: Reader, end: number, pass: Pass): V1ContainerPort {
  const out: Obj = { containerPort: 0 };
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire === WireType.LengthDelimited && field === 1) setNonEmpty(out, 'name', pass.intern.read(r));
    else if (wire === WireType.Varint && field === 2) setNonEmpty(out, 'hostPort', r.signed());
    else if (wire === WireType.Varint && field === 3) out['containerPort'] = r.signed();
    else if (wire === WireType.LengthDelimited && field === 4) setNonEmpty(out, 'protocol', pass.intern.read(r));
    else if (wire === WireType.LengthDelimited && field === 5) setNonEmpty(out, 'hostIP', pass.intern.read(r));
    else r.skip(wire);
  }
  return out as unknown as V1ContainerPort;
}

function resizePolicy(r: Reader, end: number, pass: Pass): Obj {
  const out: Obj = { resourceName: '', restartPolicy: '' };
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.LengthDelimited) out['resourceName'] = pass.intern.read(r);
    else if (field === 2 && wire === WireType.LengthDelimited) out['restartPolicy'] = pass.intern.read(r);
    else r.skip(wire);
  }
  return out;
}

/** A container: what compact.ts keeps (name, resources, ports, restartPolicy, resizePolicy). */
function container(r: Reader, end: number, pass: Pass): V1Container {
  // resources is a struct in Go, never omitted from JSON, so always here.
  const out: Obj = { name: '', resources: {} };
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) out['name'] = pass.intern.read(r);
    else if (field === 8) out['resources'] = resourceRequirements(r, r.enter(), pass);
    else if (field === 6) push(out, 'ports', containerPort(r, r.enter(), pass));
    else if (field === 24) out['restartPolicy'] = pass.intern.read(r);
    else if (field === 23) push(out, 'resizePolicy', resizePolicy(r, r.enter(), pass));
    else r.skip(wire);
  }
  return out as unknown as V1Container;
}

function containerStatus(r: Reader, end: number, pass: Pass): V1ContainerStatus {
  const out: Obj = { name: '' };
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) out['name'] = pass.intern.read(r);
    else if (field === 10) out['allocatedResources'] = addEntry(out['allocatedResources'] as Obj | undefined, r, pass, true);
    else if (field === 11) out['resources'] = resourceRequirements(r, r.enter(), pass);
    else r.skip(wire);
  }
  return out as unknown as V1ContainerStatus;
}

function labelSelectorRequirement(r: Reader, end: number, pass: Pass): V1LabelSelectorRequirement {
  const out: Obj = { key: '', operator: '' };
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) out['key'] = pass.intern.read(r);
    else if (field === 2) out['operator'] = pass.intern.read(r);
    else if (field === 3) push(out, 'values', pass.intern.read(r));
    else r.skip(wire);
  }
  return out as unknown as V1LabelSelectorRequirement;
}

function labelSelector(r: Reader, end: number, pass: Pass): V1LabelSelector {
  const out: Obj = {};
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) out['matchLabels'] = addEntry(out['matchLabels'] as Obj | undefined, r, pass, false);
    else if (field === 2) push(out, 'matchExpressions', labelSelectorRequirement(r, r.enter(), pass));
    else r.skip(wire);
  }
  return out;
}

function podAffinityTerm(r: Reader, end: number, pass: Pass): V1PodAffinityTerm {
  const out: Obj = { topologyKey: '' };
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) out['labelSelector'] = labelSelector(r, r.enter(), pass);
    else if (field === 2) push(out, 'namespaces', pass.intern.read(r));
    else if (field === 3) out['topologyKey'] = pass.intern.read(r);
    else if (field === 4) out['namespaceSelector'] = labelSelector(r, r.enter(), pass);
    else if (field === 5) push(out, 'matchLabelKeys', pass.intern.read(r));
    else if (field === 6) push(out, 'mismatchLabelKeys', pass.intern.read(r));
    else r.skip(wire);
  }
  return out as unknown as V1PodAffinityTerm;
}

function weightedPodAffinityTerm(r: Reader, end: number, pass: Pass): V1WeightedPodAffinityTerm {
  const out: Obj = { weight: 0, podAffinityTerm: { topologyKey: '' } };
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.Varint) out['weight'] = r.signed();
    else if (field === 2 && wire === WireType.LengthDelimited) out['podAffinityTerm'] = podAffinityTerm(r, r.enter(), pass);
    else r.skip(wire);
  }
  return out as unknown as V1WeightedPodAffinityTerm;
}

/** PodAffinity and PodAntiAffinity share their fields. */
function podAffinity(r: Reader, end: number, pass: Pass): Obj {
  const out: Obj = {};
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) push(out, 'requiredDuringSchedulingIgnoredDuringExecution', podAffinityTerm(r, r.enter(), pass));
    else if (field === 2) push(out, 'preferredDuringSchedulingIgnoredDuringExecution', weightedPodAffinityTerm(r, r.enter(), pass));
    else r.skip(wire);
  }
  return out;
}

function nodeSelectorRequirement(r: Reader, end: number, pass: Pass): V1NodeSelectorRequirement {
  return labelSelectorRequirement(r, end, pass) as V1NodeSelectorRequirement; // the same fields and numbers
}

function nodeSelectorTerm(r: Reader, end: number, pass: Pass): V1NodeSelectorTerm {
  const out: Obj = {};
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) push(out, 'matchExpressions', nodeSelectorRequirement(r, r.enter(), pass));
    else if (field === 2) push(out, 'matchFields', nodeSelectorRequirement(r, r.enter(), pass));
    else r.skip(wire);
  }
  return out;
}

function nodeSelector(r: Reader, end: number, pass: Pass): Obj {
  const terms: V1NodeSelectorTerm[] = [];
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.LengthDelimited) terms.push(nodeSelectorTerm(r, r.enter(), pass));
    else r.skip(wire);
  }
  return { nodeSelectorTerms: terms };
}

function preferredSchedulingTerm(r: Reader, end: number, pass: Pass): Obj {
  const out: Obj = { weight: 0, preference: {} };
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.Varint) out['weight'] = r.signed();
    else if (field === 2 && wire === WireType.LengthDelimited) out['preference'] = nodeSelectorTerm(r, r.enter(), pass);
    else r.skip(wire);
  }
  return out;
}

function nodeAffinity(r: Reader, end: number, pass: Pass): Obj {
  const out: Obj = {};
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) out['requiredDuringSchedulingIgnoredDuringExecution'] = nodeSelector(r, r.enter(), pass);
    else if (field === 2) push(out, 'preferredDuringSchedulingIgnoredDuringExecution', preferredSchedulingTerm(r, r.enter(), pass));
    else r.skip(wire);
  }
  return out;
}

function affinity(r: Reader, end: number, pass: Pass): V1Affinity {
  const out: Obj = {};
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) out['nodeAffinity'] = nodeAffinity(r, r.enter(), pass);
    else if (field === 2) out['podAffinity'] = podAffinity(r, r.enter(), pass);
    else if (field === 3) out['podAntiAffinity'] = podAffinity(r, r.enter(), pass);
    else r.skip(wire);
  }
  return out;
}

interface SourceShape {
  name: string;
  /** By field number: the field's JSON name and form. */
  fields: Record<number, readonly [string, JsonField]>;
  /** The strings JSON always writes (`s`), "" until read. */
  always: Obj;
}

/** compact.ts's readVolumeSources by field number in VolumeSource. */
const volumeSources: Record<number, SourceShape> = Object.fromEntries(
  Object.entries(readVolumeSources).map(([name, source]) => {
    const fields = Object.entries(source.fields as Record<string, readonly [number, JsonField]>);
    const shape: SourceShape = {
      name,
      fields: Object.fromEntries(fields.map(([field, [number, form]]) => [number, [field, form] as const])),
      always: Object.fromEntries(fields.filter(([, [, form]]) => form === 's').map(([field]) => [field, ''])),
    };
    return [source.number, shape];
  }),
);

function volumeSource(r: Reader, end: number, shape: SourceShape): Obj {
  const out: Obj = { ...shape.always };
  while (r.within(end)) {
    const { field, wire } = r.key();
    const known = shape.fields[field];
    if (!known) r.skip(wire);
    else if (known[1] === 'b' && wire === WireType.Varint) setNonEmpty(out, known[0], r.bool());
    else if (known[1] === 'l' && wire === WireType.LengthDelimited) push(out, known[0], r.string());
    else if (known[1] === 's' && wire === WireType.LengthDelimited) out[known[0]] = r.string();
    else if (known[1] === 'S' && wire === WireType.LengthDelimited) setNonEmpty(out, known[0], r.string());
    else r.skip(wire);
  }
  return out;
}

/** VolumeSource (inline in a Volume's JSON): the source a filter reads, if it is one. */
function readSource(r: Reader, end: number): [string, Obj] | undefined {
  let source: [string, Obj] | undefined;
  while (r.within(end)) {
    const { field, wire } = r.key();
    const shape = wire === WireType.LengthDelimited ? volumeSources[field] : undefined;
    if (shape) source = [shape.name, volumeSource(r, r.enter(), shape)];
    else r.skip(wire);
  }
  return source;
}

/** A volume whose source a filter reads, or undefined (configMap, secret, projected, ...). */
function volume(r: Reader, end: number): V1Volume | undefined {
  let name = '';
  let source: [string, Obj] | undefined;
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.LengthDelimited) name = r.string();
    else if (field === 2 && wire === WireType.LengthDelimited) source = readSource(r, r.enter()) ?? source;
    else r.skip(wire);
  }
  return source ? ({ name, [source[0]]: source[1] } as V1Volume) : undefined;
}

function podResourceClaim(r: Reader, end: number, pass: Pass): V1PodResourceClaim {
  const out: Obj = { name: '' };
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) out['name'] = pass.intern.read(r);
    else if (field === 3) out['resourceClaimName'] = r.string();
    else if (field === 4) out['resourceClaimTemplateName'] = r.string();
    else r.skip(wire);
  }
  return out as unknown as V1PodResourceClaim;
}

function podResourceClaimStatus(r: Reader, end: number, pass: Pass): V1PodResourceClaimStatus {
  const out: Obj = { name: '' };
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) out['name'] = pass.intern.read(r);
    else if (field === 2) out['resourceClaimName'] = r.string();
    else r.skip(wire);
  }
  return out as unknown as V1PodResourceClaimStatus;
}

function ownerReference(r: Reader, end: number, pass: Pass): V1OwnerReference {
  const out: Obj = { apiVersion: '', kind: '', name: '', uid: '' };
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 5 && wire === WireType.LengthDelimited) out['apiVersion'] = pass.intern.read(r);
    else if (field === 1 && wire === WireType.LengthDelimited) out['kind'] = pass.intern.read(r);
    else if (field === 3 && wire === WireType.LengthDelimited) out['name'] = pass.intern.read(r);
    else if (field === 4 && wire === WireType.LengthDelimited) out['uid'] = pass.intern.read(r);
    else if (field === 6 && wire === WireType.Varint) out['controller'] = r.bool();
    else if (field === 7 && wire === WireType.Varint) out['blockOwnerDeletion'] = r.bool();
    else r.skip(wire);
  }
  return out as unknown as V1OwnerReference;
}

function metadata(r: Reader, end: number, pass: Pass): Obj {
  const out: Obj = {};
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire === WireType.Varint && field === 10) out['deletionGracePeriodSeconds'] = r.signed();
    else if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) setNonEmpty(out, 'name', r.string());
    else if (field === 3) setNonEmpty(out, 'namespace', pass.intern.read(r));
    else if (field === 5) setNonEmpty(out, 'uid', r.string());
    else if (field === 11) out['labels'] = addEntry(out['labels'] as Obj | undefined, r, pass, false);
    else if (field === 13) push(out, 'ownerReferences', ownerReference(r, r.enter(), pass));
    else if (field === 8 || field === 9) {
      const at = time(r, r.enter(), pass);
      if (at !== undefined) out[field === 8 ? 'creationTimestamp' : 'deletionTimestamp'] = at;
    } else if (field === 14) push(out, 'finalizers', pass.intern.read(r));
    else r.skip(wire);
  }
  return out;
}

function spec(r: Reader, end: number, pass: Pass): Obj {
  const out: Obj = { containers: [] };
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire === WireType.Varint) {
      if (field === 4) out['terminationGracePeriodSeconds'] = r.signed();
      else if (field === 25) out['priority'] = r.signed();
      else if (field === 11) setNonEmpty(out, 'hostNetwork', r.bool());
      else r.skip(wire);
    } else if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 2) push(out, 'containers', container(r, r.enter(), pass));
    else if (field === 20) push(out, 'initContainers', container(r, r.enter(), pass));
    else if (field === 1) {
      const v = volume(r, r.enter());
      if (v) push(out, 'volumes', v);
    } else if (field === 10) setNonEmpty(out, 'nodeName', pass.intern.read(r));
    else if (field === 24) setNonEmpty(out, 'priorityClassName', pass.intern.read(r));
    else if (field === 31) out['preemptionPolicy'] = pass.intern.read(r);
    else if (field === 3) setNonEmpty(out, 'restartPolicy', pass.intern.read(r));
    else if (field === 32) out['overhead'] = addEntry(out['overhead'] as Obj | undefined, r, pass, true);
    else if (field === 40) out['resources'] = resourceRequirements(r, r.enter(), pass);
    else if (field === 18) out['affinity'] = affinity(r, r.enter(), pass);
    else if (field === 39) push(out, 'resourceClaims', podResourceClaim(r, r.enter(), pass));
    else if (field === 43) {
      const group = schedulingGroup(r, r.enter(), pass);
      if (group) out['schedulingGroup'] = group;
    } else r.skip(wire);
  }
  return out;
}

/** PodSchedulingGroup (v1.36 on): the PodGroup a gang member names; JSON omits an empty one's name. */
function schedulingGroup(r: Reader, end: number, pass: Pass): Obj {
  const out: Obj = {};
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (field === 1 && wire === WireType.LengthDelimited) setNonEmpty(out, 'podGroupName', pass.intern.read(r));
    else r.skip(wire);
  }
  return out;
}

function status(r: Reader, end: number, pass: Pass): Obj {
  const out: Obj = {};
  while (r.within(end)) {
    const { field, wire } = r.key();
    if (wire !== WireType.LengthDelimited) r.skip(wire);
    else if (field === 1) setNonEmpty(out, 'phase', pass.intern.read(r));
    else if (field === 7) {
      const at = time(r, r.enter(), pass);
      if (at !== undefined) out['startTime'] = at;
    } else if (field === 11) setNonEmpty(out, 'nominatedNodeName', pass.intern.read(r));
    else if (field === 14) setNonEmpty(out, 'resize', pass.intern.read(r));
    else if (field === 15) push(out, 'resourceClaimStatuses', podResourceClaimStatus(r, r.enter(), pass));
    else if (field === 8) push(out, 'containerStatuses', containerStatus(r, r.enter(), pass));
    else if (field === 10) push(out, 'initContainerStatuses', containerStatus(r, r.enter(), pass));
    else r.skip(wire);
  }
  return out;
}

/** One Pod message, as compactNeighbour would keep it. */
export function neighbourPod(r: Reader, end: number, pass: Pass): V1Pod {
  return objectMessage(r, end, pass, { metadata, spec, status }) as V1Pod;
}
