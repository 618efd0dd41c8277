// A pod waiting for its devices to be made ready (DRADeviceBindingConditions, beta and on in
// v1.36 and v1.37): the scheduler picked a node and allocated the devices, whose results carry
// binding conditions a driver must set True in the claim's status.devices before PreBind binds
// the pod. Meanwhile the pod has no PodScheduled condition, its nominatedNodeName is that node,
// and the one event says "waiting for binding conditions for device on node <node>"
// (BindingConditionsPending). Past DynamicResourcesArgs.bindingTimeout (600 s by default) or once
// a binding failure condition is True, the attempt fails ("running PreBind plugin
// "DynamicResources": device binding timeout ..."), the claim is deallocated and tried again.
import type { ResourceV1ResourceClaim, V1Pod } from '@kubernetes/client-node';
import { toTime, type ClusterEvent, type Snapshot } from '../../snapshot/types.js';

export interface DeviceAwaitingBinding {
  /** namespace/name of the claim. */
  claim: string;
  device: string;
  /** The conditions the device waits for, and the failure conditions that end the wait. */
  conditions: string[];
  failureConditions: string[];
  /** Of those, the ones True in the claim's status.devices. */
  met: string[];
  failed: string[];
}

export interface DeviceBindingStory {
  node: string;
  devices: DeviceAwaitingBinding[];
  /** When the wait began: the BindingConditionsPending event, else the allocation. */
  since?: number;
  /** The scheduler's last word on an attempt that timed out or failed (a SchedulerError condition). */
  lastFailure?: string;
}

const claimKey = (c: ResourceV1ResourceClaim) => `${c.metadata?.namespace ?? 'default'}/${c.metadata?.name ?? ''}`;

/** The story, when the pod nominated to `node` waits for binding conditions of its devices. */
export function deviceBindingStory(snapshot: Snapshot, pod: V1Pod, node: string, podEvents: readonly ClusterEvent[]): DeviceBindingStory | undefined {
  const uid = pod.metadata?.uid;
  const claims = snapshot.objects.resourceClaims.filter((c) => (c.status?.reservedFor ?? []).some((r) => r.resource === 'pods' && (r.uid === uid || r.name === pod.metadata?.name)) && (c.metadata?.namespace ?? 'default') === (pod.metadata?.namespace ?? 'default'));
  const devices: DeviceAwaitingBinding[] = [];
  for (const claim of claims) {
    for (const r of claim.status?.allocation?.devices?.results ?? []) {
      const conditions = r.bindingConditions ?? [];
      if (conditions.length === 0) continue;
      const status = (claim.status?.devices ?? []).find((d) => d.driver === r.driver && d.pool === r.pool && d.device === r.device);
      const isTrue = (type: string) => (status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
      const failureConditions = r.bindingFailureConditions ?? [];
      devices.push({ claim: claimKey(claim), device: r.device, conditions, failureConditions, met: conditions.filter(isTrue), failed: failureConditions.filter(isTrue) });
    }
  }
  const pending = [...podEvents].reverse().find((e) => e.reason === 'BindingConditionsPending');
  if (devices.length === 0 && !pending) return undefined;
  const allocated = claims.map((c) => toTime(c.status?.allocation?.allocationTimestamp as unknown as string | undefined)).find((t) => t !== undefined);
  const since = pending?.time ?? allocated;
  const failure = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.reason === 'SchedulerError' && /device binding/.test(c.message ?? ''));
  return { node, devices, ...(since !== undefined ? { since } : {}), ...(failure?.message ? { lastFailure: failure.message } : {}) };
}
