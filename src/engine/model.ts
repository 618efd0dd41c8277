// Shared shapes between the rules and the engine. Rules get precomputed facts about the pod
// and each node, so that request arithmetic and pod-to-node grouping are done once.
import type { V1Pod } from '@kubernetes/client-node';
import type { CollectionName, NodeRecord, Snapshot } from '../snapshot/types.js';
import type { PluginName, StatusCode } from './names.js';
import type { PodRequests, ResourceList } from './resources/requests.js';

/** What a rule says about a failure: data named by `kind`; English is made in src/messages/. */
export interface Detail {
  kind: string;
}

/** A failure as one rule reports it: its plugin, the scheduler's code, and the detail. */
export interface RuleReason<P extends string, D extends Detail> {
  plugin: P;
  code: StatusCode;
  detail: D;
}


export interface PodFacts {
  pod: V1Pod;
  namespace: string;
  name: string;
  requests: PodRequests;
}

export interface NodeFacts {
  node: NodeRecord;
  name: string;
  labels: Record<string, string>;
  /** Non-terminal pods bound to this node, the target pod excluded. */
  pods: V1Pod[];
  /** Sum of the effective requests of `pods`, as the scheduler's NodeInfo.Requested. */
  requested: ResourceList;
  /** Of `pods`, those with required pod anti-affinity terms (NodeInfo.PodsWithRequiredAntiAffinity): every incoming pod is checked against them. */
  withRequiredAntiAffinity: V1Pod[];
  /** The lowest spec.priority among `pods` (Infinity with none): preemption looks for lower-priority pods on 5,000 nodes. */
  lowestPriority: number;
  allocatable: ResourceList;
}

export interface PreFilterOutcome<P extends string = PluginName, D extends Detail = Detail> {
  /** The pod fails before any node is looked at; the scheduler reports no per-node reason. */
  reasons?: RuleReason<P, D>[];
  /** Only these nodes are filtered; the rest get this plugin's reason without being looked at. */
  nodeNames?: Set<string>;
  outsideDetail?: D;
  /**
   * The scheduler's Skip status: the plugin has nothing to check for this pod (no host ports,
   * no claims, no spread constraints...), so its Filter never runs on any node. Only set when
   * `filter` would find nothing on every node and `notCheckedOn` leave every node decided: it
   * saves 5,000 calls, it never changes an answer (test/unit/prefilter-skip.test.ts).
   */
  skip?: boolean;
}

export interface RuleContext {
  snapshot: Snapshot;
  pod: PodFacts;
  nodes: NodeFacts[];
  /**
   * Pending pods nominated to each node that the scheduler adds before it filters this pod there
   * (priority >= the pod's, the pod itself excluded): nominated.ts. Unset with none, and in the
   * context of the pass that has added them.
   */
  nominated?: ReadonlyMap<string, readonly V1Pod[]> | undefined;
}

/** Why a rule does not evaluate a pod at all (a feature the engine does not model yet). */
export type NotEvaluated = { kind: 'resourceClaims'; claims: { podClaim: string; claim: string; template?: string }[] };

/** Why a rule could not decide one node (a feature of that node's input it does not model). */
export type NodeNotChecked =
  /** A CEL expression the CEL library cannot evaluate. */
  | { kind: 'selectorNotEvaluable'; expression: string; error: string }
  /** A feature of the devices or requests the allocator replay does not model. */
  | { kind: 'allocatorFeature'; feature: string }
  /**
   * An existing pod's anti-affinity term selects this pod's labels, and its namespaceSelector
   * reads labels of this pod's namespace that the input lacks (the namespace was not read).
   */
  | { kind: 'namespaceLabelsUnread'; namespace: string; namespaceSelectors: string[] }
  /**
   * A DeviceClass serves an extended resource the pod asks and the node lists none of, so its
   * devices decide, but the ResourceSlices or ResourceClaims that say what is free were not read.
   */
  | { kind: 'extendedResourceDevicesUnread'; resources: string[]; collections: CollectionName[] };

/**
 * What a rule declares about itself, as data: read by the registry (src/messages/registry.ts), by tests
 * that check every plugin is complete, and by sources that plan their reads.
 */
export interface RuleMeta<P extends string, D extends Detail> {
  /** The scheduler's name for the plugin. */
  readonly name: P;
  /** Every kind of detail the rule returns; each needs a message and a short form. */
  readonly kinds: readonly D['kind'][];
  /**
   * Set when the rule's PreFilter can narrow the nodes to some names (NodeAffinity's
   * matchFields, VolumeBinding's local PVs): a source that reads in stages runs it as soon as
   * what `needs(pod)` names is read, and skips the other nodes' pods.
   */
  readonly narrowsNodes?: true;
  /**
   * The minor release (of 1.x) from which the default scheduler runs the plugin: before it, its
   * feature gate is off by default, and a cluster of that release is replayed without the rule
   * (engine/release.ts, `forRelease`). Absent: every release modelled runs it.
   */
  readonly since?: number;
  /**
   * Where the rule ran in releases before `minor`, when the default profile has moved it since:
   * just before the rule `ranBefore` names (v1.37 moved NodeName ahead of NodeUnschedulable).
   */
  readonly movedIn?: { readonly minor: number; readonly ranBefore: string };
}

/**
 * A filter's answer for a node it passes: one shared empty list, frozen. 13 rules on 5,000 nodes
 * would otherwise allocate 65,000 empty arrays; the judge only reads what a filter returns.
 */
export const passed = Object.freeze([]) as unknown as never[];

/**
 * One scheduler filter plugin's logic. `P` is its name, `D` the union of the details it returns.
 * A rule reads only the snapshot, through the facts it is given; it returns data, never text.
 */
export interface FilterRule<P extends string = PluginName, D extends Detail = Detail> {
  readonly meta: RuleMeta<P, D>;
  /**
   * Collections this rule reads for this pod, beyond the node it judges. When one is a gap
   * (missing from a dump, forbidden, partial), the rule's verdict is "not checked" on every
   * node, except for the failures `provenDespiteGaps` keeps. Nothing: the node object alone
   * decides, so a source that reads in stages can judge the rule before reading any pod.
   */
  needs(pod: PodFacts): CollectionName[];
  /**
   * Whether a failure stays proven although `gaps` are missing: true when what is missing can
   * only add to it (a host port already taken stays taken whatever other pods exist). Absent:
   * no failure of this rule is proven under a gap.
   */
  provenDespiteGaps?(detail: D, gaps: readonly CollectionName[]): boolean;
  /** Set when the rule cannot evaluate this pod at all: "not checked" on every node. */
  notEvaluated?(pod: PodFacts): NotEvaluated | undefined;
  /** The scheduler's PreFilter: a pod-level failure, or a narrowing to some node names. */
  preFilter?(ctx: RuleContext): PreFilterOutcome<P, D>;
  /** Set when the rule cannot decide this node (asked only when `filter` found no failure). */
  notCheckedOn?(ctx: RuleContext, node: NodeFacts): NodeNotChecked | undefined;
  /** Every reason this node fails the plugin for; empty when it passes. */
  filter(ctx: RuleContext, node: NodeFacts): RuleReason<P, D>[];
}

