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

/** Why a rule does not evaluate a pod at all (a feature the engine does not model yet). */
export type NotEvaluated = { kind: 'resourceClaims'; claims: { podClaim: string; claim: string; template?: string }[] };

export interface FilterRule {
  readonly plugin: PluginName;
  /**
   * Collections this rule reads for this pod, beyond the node it judges. When one is a gap
   * (missing from a dump, forbidden, partial), the rule's verdict is "not checked" on every
   * node, except for the failures `provenDespiteGaps` keeps.
   */
  needs(pod: PodFacts): CollectionName[];
  /**
   * Whether a failure stays proven although `gaps` are missing: true when what is missing can
   * only add to it (a host port already taken stays taken whatever other pods exist). Absent:
   * no failure of this rule is proven under a gap.
   */
  provenDespiteGaps?(detail: ReasonDetail, gaps: readonly CollectionName[]): boolean;
  /** Set when the rule cannot evaluate this pod at all: "not checked" on every node. */
  notEvaluated?(pod: PodFacts): NotEvaluated | undefined;
  /** The scheduler's PreFilter: a pod-level failure, or a narrowing to some node names. */
  preFilter?(ctx: RuleContext): PreFilterOutcome;
  /** Every reason this node fails the plugin for; empty when it passes. */
  filter(ctx: RuleContext, node: NodeFacts): Reason[];
}
