// Shared shapes between the rules and the engine. Rules get precomputed facts about the pod
// and each node, so that request arithmetic and pod-to-node grouping are done once.
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { Snapshot, CollectionName } from '../snapshot/types.js';
import type { PluginName, StatusCode } from './plugins.js';
import type { ReasonDetail } from './reasons.js';
import type { PodRequests, ResourceList } from './resources/requests.js';

export interface Reason {
  plugin: PluginName;
  code: StatusCode;
  detail: ReasonDetail;
}

export interface PodFacts {
  pod: V1Pod;
  namespace: string;
  name: string;
  requests: PodRequests;
}

export interface NodeFacts {
  node: V1Node;
  name: string;
  labels: Record<string, string>;
  /** Non-terminal pods bound to this node, the target pod excluded. */
  pods: V1Pod[];
  /** Sum of the effective requests of `pods`, as the scheduler's NodeInfo.Requested. */
  requested: ResourceList;
  allocatable: ResourceList;
}

export interface PreFilterOutcome {
  /** The pod fails before any node is looked at; the scheduler reports no per-node reason. */
  reasons?: Reason[];
  /** Only these nodes are filtered; the rest get this plugin's reason without being looked at. */
  nodeNames?: Set<string>;
  outsideDetail?: ReasonDetail;
}

export interface RuleContext {
  snapshot: Snapshot;
  pod: PodFacts;
  nodes: NodeFacts[];
}

export interface FilterRule {
  readonly plugin: PluginName;
  /** Collections this rule reads for this pod; a gap in one makes its verdict partial. */
  needs(pod: PodFacts): CollectionName[];
  /** The scheduler's PreFilter: a pod-level failure, or a narrowing to some node names. */
  preFilter?(ctx: RuleContext): PreFilterOutcome;
  /** Every reason this node fails the plugin for; empty when it passes. */
  filter(ctx: RuleContext, node: NodeFacts): Reason[];
}
