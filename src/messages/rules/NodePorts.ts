// NodePorts: what it checks, its messages and short forms, and the scheduler's wordings.
import rule, { type HostPort, type PortHolder, type PortOverlap } from '../../engine/rules/NodePorts.js';
import { filterWording } from '../../engine/scheduler-message/catalog.js';
import { plugin, verb } from '../plugin.js';

function address(p: HostPort): string {
  return `${p.hostIP}:${p.port}/${p.protocol}`;
}

const overlapWords: Record<PortOverlap, string> = {
  sameAddress: 'the same address',
  wantedEveryAddress: "the pod's 0.0.0.0 wants every address, this one included",
  heldOnEveryAddress: 'its 0.0.0.0 holds every address, the wanted one included',
};

function holderText(u: PortHolder): string {
  const why = u.overlap === 'wantedEveryAddress' && u.port.hostIP === '0.0.0.0' ? 'both bind every address' : overlapWords[u.overlap];
  return `${u.namespace}/${u.name} holds ${address(u.port)} (${why})`;
}

export default plugin(rule, {
  purpose: 'a host port the pod needs is already taken on the node',
  wordings: [
    // nodeports/node_ports.go ErrReason.
    filterWording(/^node\(s\) didn't have free ports for the requested pod ports$/, 'Unschedulable', 'all'),
  ],
  messages: {
    hostPortInUse: (d) => `host port ${d.wanted.port}/${d.wanted.protocol} on ${d.wanted.hostIP} is taken: ${d.usedBy.map(holderText).join('; ')}`,
  },
  short: {
    hostPortInUse: (d) => `port ${d.wanted.port}/${d.wanted.protocol} taken`,
  },
  headline: {
    hostPortInUse: {
      key: (d) => `${d.wanted.port}/${d.wanted.protocol}`,
      says: (n, details) => {
        const users = [...new Set(details.flatMap((d) => d.usedBy.map((u) => `${u.namespace}/${u.name}`)))];
        const port = details[0] ? `${details[0].wanted.port}/${details[0].wanted.protocol}` : '';
        const brief = `already ${verb(n, 'has', 'have')} host port ${port} in use`;
        return { text: users.length === 1 ? `${brief} (by ${users[0] ?? ''})` : brief, brief };
      },
    },
  },
});
