// NodePorts: a host port (protocol, hostIP, port) can be used once per node. 0.0.0.0 (or an
// empty hostIP) conflicts with every address on the same port and protocol.
//
// Which containers hold host ports is upstream's schedutil.GetHostPorts (pkg/scheduler/util,
// PR #132040, v1.34, cherry-picked to v1.33): the regular containers and the restartable
// (sidecar) init containers, which run for the pod's whole life. A plain init container has
// exited before the pod's containers start, so its hostPort holds nothing. The same helper
// fills NodeInfo.UsedPorts for the pods already on a node (framework/types.go updateUsedPorts)
// and the incoming pod's wanted ports (nodeports PreFilter, which skips a pod with none), so
// both sides are read by `hostPorts` below. Ports of 0 and less hold nothing either.
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import type { FilterRule } from '../model.js';

export interface HostPort {
  port: number;
  protocol: string;
  hostIP: string;
}

/**
 * Why two host ports on the same port and protocol collide (HostPortInfo.CheckConflict):
 * the same address, the wanted one on 0.0.0.0 (it needs every address, so any use blocks it),
 * or the held one on 0.0.0.0 (it has every address already).
 */
export type PortOverlap = 'sameAddress' | 'wantedEveryAddress' | 'heldOnEveryAddress';

export interface PortHolder {
  namespace: string;
  name: string;
  port: HostPort;
  overlap: PortOverlap;
}

export interface NodePortsDetail {
  kind: 'hostPortInUse';
  wanted: HostPort;
  usedBy: PortHolder[];
}

const anyAddress = '0.0.0.0';

/** Containers that run for the pod's whole life: sidecars (restartPolicy Always) and regular ones. */
function longRunning(pod: V1Pod): V1Container[] {
  const sidecars = (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  return [...sidecars, ...(pod.spec?.containers ?? [])];
}

export function hostPorts(pod: V1Pod): HostPort[] {
  return longRunning(pod).flatMap((container) =>
    (container.ports ?? [])
      .filter((port) => (port.hostPort ?? 0) > 0)
      .map((port) => ({
        port: port.hostPort ?? 0,
        protocol: port.protocol || 'TCP',
        hostIP: port.hostIP || anyAddress,
      })),
  );
}

/** How `wanted` collides with `held`, or undefined when it does not; 0.0.0.0 on the wanted side is named first, as CheckConflict tests it first. */
export function overlapOf(wanted: HostPort, held: HostPort): PortOverlap | undefined {
  if (wanted.port !== held.port || wanted.protocol !== held.protocol) return undefined;
  if (wanted.hostIP === anyAddress) return 'wantedEveryAddress';
  if (held.hostIP === anyAddress) return 'heldOnEveryAddress';
  return wanted.hostIP === held.hostIP ? 'sameAddress' : undefined;
}

// The incoming pod's ports, asked on every node: read once per pod object (a fix's replay
// that edits the pod has a copy, read again).
const wantedOf = new WeakMap<V1Pod, HostPort[]>();

function wantedPorts(pod: V1Pod): HostPort[] {
  let wanted = wantedOf.get(pod);
  if (!wanted) {
    wanted = hostPorts(pod);
    wantedOf.set(pod, wanted);
  }
  return wanted;
}

type Held = Omit<PortHolder, 'overlap'>;

// The ports held on a node, read once per node's list of pods: every pod that wants a host port
// asks every node, and a triage asks for each class of such pods.
const heldOn = new WeakMap<readonly V1Pod[], Held[]>();

function heldPorts(pods: readonly V1Pod[]): Held[] {
  let held = heldOn.get(pods);
  if (!held) {
    held = pods.flatMap((other) => hostPorts(other).map((port) => ({ namespace: other.metadata?.namespace ?? '', name: other.metadata?.name ?? '', port })));
    heldOn.set(pods, held);
  }
  return held;
}

const rule: FilterRule<'NodePorts', NodePortsDetail> = {
  meta: { name: 'NodePorts', kinds: ['hostPortInUse'] },
  needs: (pod) => (hostPorts(pod.pod).length > 0 ? ['pods'] : []),
  // A port found taken stays taken whatever other pods the input lacks.
  provenDespiteGaps: () => true,
  // No host port wanted: nothing to filter (upstream's Skip).
  preFilter: ({ pod }) => (wantedPorts(pod.pod).length === 0 ? { skip: true } : {}),
  filter({ pod }, node) {
    const wanted = wantedPorts(pod.pod);
    if (wanted.length === 0) return [];
    const used = heldPorts(node.pods);
    const reasons = [];
    for (const port of wanted) {
      const usedBy = used.flatMap((entry): PortHolder[] => {
        const overlap = overlapOf(port, entry.port);
        return overlap ? [{ ...entry, overlap }] : [];
      });
      if (usedBy.length > 0) {
        reasons.push({ plugin: 'NodePorts' as const, code: 'Unschedulable' as const, detail: { kind: 'hostPortInUse' as const, wanted: port, usedBy } });
      }
    }
    return reasons;
  },
};

export default rule;
