// NodePorts: a host port (protocol, hostIP, port) can be used once per node. 0.0.0.0 (or an
// empty hostIP) conflicts with every address on the same port and protocol.
import type { V1Pod } from '@kubernetes/client-node';
import type { FilterRule } from '../model.js';

export interface HostPort {
  port: number;
  protocol: string;
  hostIP: string;
}

export interface NodePortsDetail {
  kind: 'hostPortInUse';
  wanted: HostPort;
  usedBy: { namespace: string; name: string; port: HostPort }[];
}

const anyAddress = '0.0.0.0';

export function hostPorts(pod: V1Pod): HostPort[] {
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  return containers.flatMap((container) =>
    (container.ports ?? [])
      .filter((port) => (port.hostPort ?? 0) > 0)
      .map((port) => ({
        port: port.hostPort ?? 0,
        protocol: port.protocol || 'TCP',
        hostIP: port.hostIP || anyAddress,
      })),
  );
}

function conflicts(a: HostPort, b: HostPort): boolean {
  if (a.port !== b.port || a.protocol !== b.protocol) return false;
  return a.hostIP === anyAddress || b.hostIP === anyAddress || a.hostIP === b.hostIP;
}

const rule: FilterRule = {
  plugin: 'NodePorts',
  needs: (pod) => (hostPorts(pod.pod).length > 0 ? ['pods'] : []),
  filter({ pod }, node) {
    const wanted = hostPorts(pod.pod);
    if (wanted.length === 0) return [];
    const used = node.pods.flatMap((other) =>
      hostPorts(other).map((port) => ({ namespace: other.metadata?.namespace ?? '', name: other.metadata?.name ?? '', port })),
    );
    const reasons = [];
    for (const port of wanted) {
      const usedBy = used.filter((entry) => conflicts(port, entry.port));
      if (usedBy.length > 0) {
        reasons.push({ plugin: 'NodePorts' as const, code: 'Unschedulable' as const, detail: { kind: 'hostPortInUse' as const, wanted: port, usedBy } });
      }
    }
    return reasons;
  },
};

export default rule;
