// The pending pods of the live benchmark, (a) to (e), and what their diagnosis must say.
import { CANDIDATE_LABEL, EVERY_NODE_LABEL, NODE_CPU_MILLIS, nodeName, tainted } from './seed.js';

export const BENCH_NAMESPACE = 'bench';

export interface BenchCase {
  id: 'a' | 'b' | 'c' | 'd' | 'e' | 'f';
  title: string;
  pod: Record<string, unknown>;
  /** How many nodes each plugin fails first (the -o json counts.byFirstPlugin), given the cluster. */
  byFirstPlugin: (c: { nodes: number; tainted: number; candidates: number }) => Record<string, number>;
}

function pod(name: string, cpuMillis: number, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: BENCH_NAMESPACE, labels: { app: name } },
    spec: {
      containers: [{ name: 'main', image: 'registry.example.com/bench:v1', resources: { requests: { cpu: `${cpuMillis}m`, memory: '128Mi' } } }],
      ...spec,
    },
  };
}

export function benchCases(freeCpuMillis: number): BenchCase[] {
  return [
    {
      id: 'a',
      title: 'excluded by node-only checks (selector matches nothing)',
      pod: pod('case-a', 100, { nodeSelector: { pool: 'generall' } }),
      byFirstPlugin: ({ nodes, tainted }) => ({ TaintToleration: tainted, NodeAffinity: nodes - tainted }),
    },
    {
      id: 'b',
      title: '100 candidate nodes after node-only checks',
      pod: pod('case-b', freeCpuMillis + 1, { nodeSelector: { [CANDIDATE_LABEL]: 'yes' } }),
      byFirstPlugin: ({ nodes, tainted, candidates }) => ({ TaintToleration: tainted, NodeAffinity: nodes - tainted - candidates, NodeResourcesFit: candidates }),
    },
    {
      id: 'c',
      title: "request above every node's allocatable",
      pod: pod('case-c', NODE_CPU_MILLIS + 1000),
      byFirstPlugin: ({ nodes, tainted }) => ({ TaintToleration: tainted, NodeResourcesFit: nodes - tainted }),
    },
    {
      id: 'd',
      title: "every node a candidate (request just above each node's free cpu)",
      pod: pod('case-d', freeCpuMillis + 1),
      byFirstPlugin: ({ nodes, tainted }) => ({ TaintToleration: tainted, NodeResourcesFit: nodes - tainted }),
    },
    {
      id: 'e',
      title: 'anti-affinity to a pod on every node',
      pod: pod('case-e', 100, {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { [EVERY_NODE_LABEL.key]: EVERY_NODE_LABEL.value } }, namespaceSelector: {}, topologyKey: 'kubernetes.io/hostname' },
            ],
          },
        },
      }),
      byFirstPlugin: ({ nodes, tainted }) => ({ TaintToleration: tainted, InterPodAffinity: nodes - tainted }),
    },
    {
      // A pod pinned to a node by its hostname (a local volume's node, a debugging pod): every
      // node's hostname is another value, so each node is its own NodeAffinity class.
      id: 'f',
      title: 'pinned by nodeSelector to one hostname (a tainted node)',
      pod: pod('case-f', 100, { nodeSelector: { 'kubernetes.io/hostname': nodeName(pinnedNode) } }),
      byFirstPlugin: ({ nodes, tainted }) => ({ TaintToleration: tainted, NodeAffinity: nodes - tainted }),
    },
  ];
}

/** The node case (f) is pinned to: tainted, so that the pod stays pending. */
const pinnedNode = 9;
if (!tainted(pinnedNode)) throw new Error('case (f) must pin the pod to a tainted node');
