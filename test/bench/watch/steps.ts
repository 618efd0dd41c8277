// The changes that move the watched pod's verdict, one write each (so that the write's time is
// the time of the change), on a node of its own that would fit the pod but for one thing at a
// time: a taint, a cordon, too little allocatable cpu. The pod stays pending through the cycle;
// `bind` and `running` end it, one write each: the harness binds the pod to a node (the
// scheduler would wait out its backoff first) and plays the kubelet (phase Running).
import type { ApiClient } from '../../e2e/harness/api.js';

const BIG_NODE = 'watch-big';

export interface Step {
  what: string;
  apply(api: ApiClient): Promise<void>;
}

/** A node as a kubelet registers it: status in the create (the not-ready taint admission adds stays, with no lifecycle controller). */
function nodeManifest(name: string, cpu: string, taints: { key: string; value: string; effect: string }[]): object {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const resources = { cpu, memory: '256Gi', pods: '110', 'ephemeral-storage': '200Gi' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' } },
    spec: { taints },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now }],
    },
  };
}

const big = `/api/v1/nodes/${BIG_NODE}`;

/** One cycle; the harness repeats it. Each step changes the pod's verdict (a fresh read decides, step by step). */
export const cycle: readonly Step[] = [
  { what: `add node ${BIG_NODE} (128 cpu, tainted)`, apply: (api) => api.post('/api/v1/nodes', nodeManifest(BIG_NODE, '128', [{ key: 'bench/hold', value: 'yes', effect: 'NoSchedule' }])).then(() => undefined) },
  { what: `untaint and cordon ${BIG_NODE}`, apply: (api) => api.patch(big, { spec: { taints: null, unschedulable: true } }).then(() => undefined) },
  { what: `scale ${BIG_NODE}'s allocatable cpu to 32 (node status)`, apply: (api) => api.patch(`${big}/status`, { status: { allocatable: { cpu: '32' }, capacity: { cpu: '32' } } }).then(() => undefined) },
  { what: `uncordon ${BIG_NODE} (32 cpu: still too small)`, apply: (api) => api.patch(big, { spec: { unschedulable: null } }).then(() => undefined) },
  { what: `delete node ${BIG_NODE}`, apply: (api) => api.delete(big).then(() => undefined) },
];

/** Plays the scheduler: binds the pod to `node` (the binding subresource checks no fit). */
export function bind(namespace: string, pod: string, node: string): Step {
  return {
    what: `bind the pod to ${node} (playing the scheduler)`,
    apply: (api) => api.post(`/api/v1/namespaces/${namespace}/pods/${pod}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: pod }, target: { apiVersion: 'v1', kind: 'Node', name: node } }).then(() => undefined),
  };
}

/** Plays the kubelet: the pod's phase Running. */
export function running(namespace: string, pod: string): Step {
  return {
    what: 'set the pod Running (playing its kubelet)',
    apply: (api) => api.patch(`/api/v1/namespaces/${namespace}/pods/${pod}/status`, { status: { phase: 'Running' } }).then(() => undefined),
  };
}
