// The pending pods of the live benchmark, (a) to (f), what their diagnosis must say, and the
// group a triage (-A) must put each in.
import { CANDIDATE_LABEL, EVERY_NODE_LABEL, NODE_CPU_MILLIS, nodeName, tainted } from './seed.js';

export const BENCH_NAMESPACE = 'bench';

/** A triage group's cause (schema/triage.v1.json groups[].cause): pods share a group when all of it is equal. */
export interface TriageIdentity {
  stage: string;
  plugin?: string;
  reason?: string;
  key: string;
}

/**
 * The cause a seeded pod must be grouped by. A key is opaque: where it is a message (a
 * pre-filter's reason told in words), what it must name is matched rather than its wording.
 */
export type ExpectedCause = Omit<TriageIdentity, 'key'> & { key: string | RegExp };

/**
 * The nodes of the seeded cluster by what a case's pod fails first there: tainted (dedicated=gpu),
 * case (b)'s candidates, the incident's cordoned pool (none without --incident), and the nodes
 * packed to 110 pods (none without --skew). The four sets are apart (layout.ts, incident.ts).
 */
interface NodeCounts {
  nodes: number;
  tainted: number;
  candidates: number;
  cordoned: number;
  packed: number;
}

export interface BenchCase {
  id: 'a' | 'b' | 'c' | 'd' | 'e' | 'f';
  title: string;
  pod: Record<string, unknown>;
  /** How many nodes each plugin fails first (the -o json counts.byFirstPlugin), given the cluster. */
  byFirstPlugin: (c: NodeCounts) => Record<string, number>;
  /** The group a triage puts the pod in (incident.ts checks it beside the incident's pods). */
  triage: ExpectedCause;
  /**
   * What the diagnosis must say of the scheduler's message: that it agrees (the default), or
   * that it cannot confirm it for want of pods it chose not to read (scheduler.likelyCauses).
   */
  agreement?: (c: NodeCounts) => true | 'podsUnread';
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

/** `maxFreeCpuMillis`: the freest node's free cpu (layout.ts); one millicore more fits no node. */
export function benchCases(maxFreeCpuMillis: number): BenchCase[] {
  return [
    {
      id: 'a',
      title: 'excluded by node-only checks (selector matches nothing)',
      pod: pod('case-a', 100, { nodeSelector: { pool: 'generall' } }),
      byFirstPlugin: ({ nodes, tainted, cordoned }) => ({ NodeUnschedulable: cordoned, TaintToleration: tainted, NodeAffinity: nodes - tainted - cordoned }),
      triage: { stage: 'Unschedulable', plugin: 'NodeAffinity', reason: 'nodeSelectorMismatch', key: 'pool=generall' },
    },
    {
      id: 'b',
      title: '100 candidate nodes after node-only checks',
      pod: pod('case-b', maxFreeCpuMillis + 1, { nodeSelector: { [CANDIDATE_LABEL]: 'yes' } }),
      byFirstPlugin: ({ nodes, tainted, candidates, cordoned }) => ({ NodeUnschedulable: cordoned, TaintToleration: tainted, NodeAffinity: nodes - tainted - candidates - cordoned, NodeResourcesFit: candidates }),
      triage: { stage: 'Unschedulable', plugin: 'NodeResourcesFit', reason: 'insufficientResource', key: 'cpu|' },
    },
    {
      id: 'c',
      title: "request above every node's allocatable",
      pod: pod('case-c', NODE_CPU_MILLIS + 1000),
      byFirstPlugin: ({ nodes, tainted, cordoned }) => ({ NodeUnschedulable: cordoned, TaintToleration: tainted, NodeResourcesFit: nodes - tainted - cordoned }),
      triage: { stage: 'Unschedulable', plugin: 'NodeResourcesFit', reason: 'insufficientResource', key: 'cpu|over' },
      // Nodes packed to 110 pods (--skew): the scheduler counts "Too many pods" there too. No
      // pod is read for a request above every node (none could change that verdict), so that
      // count cannot be confirmed, and the diagnosis says why rather than "differs".
      agreement: ({ packed }) => (packed > 0 ? 'podsUnread' : true),
    },
    {
      id: 'd',
      title: "every node a candidate (request just above each node's free cpu)",
      pod: pod('case-d', maxFreeCpuMillis + 1),
      byFirstPlugin: ({ nodes, tainted, cordoned }) => ({ NodeUnschedulable: cordoned, TaintToleration: tainted, NodeResourcesFit: nodes - tainted - cordoned }),
      triage: { stage: 'Unschedulable', plugin: 'NodeResourcesFit', reason: 'insufficientResource', key: 'cpu|' },
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
      // A node full to its pod count fails NodeResourcesFit, which the scheduler runs before InterPodAffinity.
      byFirstPlugin: ({ nodes, tainted, cordoned, packed }) => ({ NodeUnschedulable: cordoned, TaintToleration: tainted, NodeResourcesFit: packed, InterPodAffinity: nodes - tainted - cordoned - packed }),
      triage: { stage: 'Unschedulable', plugin: 'InterPodAffinity', reason: 'podAntiAffinityConflict', key: '0' },
    },
    {
      // A pod pinned to a node by its hostname (a local volume's node, a debugging pod): every
      // node's hostname is another value, so each node is its own NodeAffinity class.
      id: 'f',
      title: 'pinned by nodeSelector to one hostname (a tainted node)',
      pod: pod('case-f', 100, { nodeSelector: { 'kubernetes.io/hostname': nodeName(pinnedNode) } }),
      byFirstPlugin: ({ nodes, tainted, cordoned }) => ({ NodeUnschedulable: cordoned, TaintToleration: tainted, NodeAffinity: nodes - tainted - cordoned }),
      triage: { stage: 'Unschedulable', plugin: 'TaintToleration', reason: 'untoleratedTaint', key: 'dedicated:NoSchedule||' },
    },
  ];
}

/** The node case (f) is pinned to: tainted, so that the pod stays pending. */
const pinnedNode = 9;
if (!tainted(pinnedNode)) throw new Error('case (f) must pin the pod to a tainted node');
