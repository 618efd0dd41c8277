// Fixes as data: each change is what a person would edit (a toleration of the pod, a request,
// a node's label, a cordon), small enough to replay through the engine's own filters on a
// patched copy of the snapshot. The English, the YAML and the kubectl command are made in
// src/messages/fixes.ts from these.
import type { V1DeviceTaint, V1DeviceToleration, V1NodeSelectorRequirement, V1Taint, V1Toleration, V1TopologySpreadConstraint } from '@kubernetes/client-node';
import type { ObjectRef } from '../events.js';
import type { Judgement } from '../judge.js';
import type { RuleContext } from '../model.js';
import type { RuleSet } from '../reasons.js';
import type { PluginName } from '../names.js';

/** Where a request is set: a container, an init container, or the pod (`spec.resources`). */
export type RequestPlace = { in: 'containers' | 'initContainers'; container: string } | { in: 'pod' };

export type Change =
  /** Add this toleration, or put it in place of the pod's near-miss toleration `replaces`. */
  | { kind: 'tolerateTaint'; cause: 'TaintToleration'; taint: V1Taint; toleration: V1Toleration; replaces?: { index: number; toleration: V1Toleration } }
  /**
   * Tolerate a device's taint in request `request` (or `request/subrequest`) of ResourceClaim
   * `claim` (namespace/name), or put the copy in place of the request's near-miss toleration.
   * `rule`: the DeviceTaintRule that adds the taint, if one does.
   */
  | { kind: 'tolerateDeviceTaint'; cause: 'DynamicResources'; claim: string; request: string; taint: V1DeviceTaint; toleration: V1DeviceToleration; rule?: string; replaces?: { index: number; toleration: V1DeviceToleration } }
  /** Lower the capacity request `capacity` of request `request` of ResourceClaim `claim` (milli-units) to what a shared device has left. */
  | { kind: 'setDeviceCapacity'; cause: 'DynamicResources'; claim: string; request: string; capacity: string; from: bigint; to: bigint }
  /** Set one request (amounts in the scheduler's units: millicores for cpu, bytes for memory). */
  | { kind: 'setRequest'; cause: 'NodeResourcesFit'; place: RequestPlace; resource: string; from: bigint; to: bigint }
  /**
   * Give these nodes these labels (and take these away). `overwrite`: the values the nodes have
   * now for keys `set` respells (the one node spelled unlike its peers: relabel.ts).
   */
  | { kind: 'labelNodes'; cause: 'NodeAffinity'; nodes: string[]; set: Record<string, string>; remove: string[]; overwrite?: Record<string, string> }
  /** Change one entry of the pod's nodeSelector: its key or its value, to what the nodes carry. */
  | { kind: 'setNodeSelector'; cause: 'NodeAffinity'; from: { key: string; value: string }; to: { key: string; value: string } }
  /** Change the key or a value of one expression of a required node-affinity term to the nodes' spelling. */
  | {
      kind: 'setAffinityExpression';
      cause: 'NodeAffinity';
      term: number;
      expression: number;
      from: V1NodeSelectorRequirement;
      to: V1NodeSelectorRequirement;
      /** The term's expressions with the change made. */
      termAfter: V1NodeSelectorRequirement[];
    }
  /** Drop expressions of a required node-affinity term (the ones that exclude the nodes). */
  | {
      kind: 'removeAffinityExpressions';
      cause: 'NodeAffinity';
      term: number;
      expressions: { index: number; requirement: V1NodeSelectorRequirement }[];
      /** The term's expressions that stay. */
      termAfter: V1NodeSelectorRequirement[];
    }
  /** `since`: when the node was cordoned (its unschedulable taint's timeAdded), `by`: the field manager that set spec.unschedulable, where the input shows them. */
  /**
   * Set one topology spread constraint's nodeTaintsPolicy to Honor, so that domains whose nodes
   * all carry taints the pod does not tolerate stop counting (spread.ts). `after`: the pod's
   * constraints with the change made (a template's list is replaced whole by an edit).
   */
  | { kind: 'honorTaintsInSpread'; cause: 'PodTopologySpread'; index: number; topologyKey: string; after: V1TopologySpreadConstraint[] }
  | { kind: 'uncordon'; cause: 'NodeUnschedulable'; node: string; since?: number; by?: string }
  /**
   * Nothing to change: what is already under way frees room (wait.ts). `victims`: the
   * preemption's victims on `node` still terminating, since when; `scaleUp`: the autoscaler
   * adding nodes, and the groups or NodeClaims it named.
   */
  | { kind: 'waitForVictims'; cause: PluginName; node: string; victims: { namespace: string; name: string; since?: number }[] }
  | { kind: 'waitForScaleUp'; cause: PluginName; autoscaler: string; targets: string[]; since?: number }
  /** What preemption would remove from the node: lower-priority pods only. */
  | {
      kind: 'preempt';
      cause: PluginName;
      node: string;
      /**
       * `budgets`: the PodDisruptionBudgets removing this victim would violate (the scheduler's
       * last resort); `terminating`: already being deleted.
       */
      victims: { namespace: string; name: string; priority: number; budgets?: string[]; terminating?: true }[];
      /** False when PodDisruptionBudgets were not read: the scheduler may then pick other victims. */
      budgetsKnown: boolean;
    };

/** The object whose pod spec a change edits: the top owner's pod template, or the pod itself. */
export type SpecTarget =
  | { kind: 'template'; owner: ObjectRef; path: readonly string[] }
  /** No owner that recreates it: the pod must be deleted and created again with the change. */
  | { kind: 'pod'; pod: { namespace: string; name: string } };

/**
 * What kind of decision a fix asks for, safest first (classes.ts): `correction` undoes a near
 * miss (a toleration or selector the pod spells unlike the cluster, the one node label spelled
 * unlike its peers); `wait` names what is already under way; `capacity` changes a request or
 * makes room; `policy` changes what the cluster intends (tolerating a taint the pod never
 * referenced, dropping an affinity term, labelling a node with a fact, uncordoning).
 */
export type FixClass = 'correction' | 'wait' | 'capacity' | 'policy';

/** What a fix changes beyond its own nodes, for the words that go with it (classes.ts). */
export type FixCaution =
  /** A taint the pod never referenced: it keeps other workloads off these nodes. */
  | { kind: 'taintKeepsOthersOff'; taint: string; nodes: string[] }
  /** A device's taint (an unhealthy device, one set aside) the claim never mentioned: its devices are on `nodes`. */
  | { kind: 'deviceTaintKeepsOthersOff'; taint: string; rule?: string; nodes: string[] }
  /** A label stating a fact of the node: true only if the node has it. */
  | { kind: 'labelStatesFact'; labels: string[]; nodes: string[] }
  /** An affinity requirement dropped: the pod may then run on nodes without it. */
  | { kind: 'requirementDropped'; requirements: string[] }
  /** The pod's selector changed to a spelling other nodes carry: it moves to other nodes. */
  | { kind: 'selectorRetargeted'; from: string; to: string }
  /** A cordoned node: someone took it out of service. */
  | { kind: 'cordoned'; node: string; since?: number; by?: string }
  /**
   * A request cut by more than a quarter: what the container needs is a capacity decision.
   * `instead`: the node nearest to fitting the request as it is, and how much must be freed there.
   */
  | { kind: 'largeCut'; resource: string; percent: number; instead?: { node: string; free: bigint } }
  /** The cut takes the request below the limit it was copied from or equal to: the pod's QoS class changes. */
  | { kind: 'qosChanges'; from: string; to: string };

export interface Fix {
  /** What kind of decision it asks for (the order fixes are offered in). */
  class: FixClass;
  /** What a person must weigh before making it; absent when nothing. */
  cautions?: FixCaution[];
  /** The plugin whose failure the (first) change clears. */
  cause: PluginName;
  /** Replayed together, as one. */
  changes: Change[];
  /** Present when a change edits the pod's spec. */
  spec?: SpecTarget;
  /** Nodes whose verdict becomes `fits` in the replay (a wait: the node it frees). Empty only for a wait on nodes still to come. */
  makesFit: string[];
  /** Nodes the change targets that become `unproven` (a gap in the input): not counted as fitting. */
  unproven: string[];
  /** Nodes the change targets that still fail, with the plugins that block them. */
  stillBlockedBy: Record<string, PluginName[]>;
}

/** What a generator is given: the judgement of the pod as it is, and how to read the cluster. */
export interface FixInput {
  rules: RuleSet['rules'];
  ctx: RuleContext;
  judgement: Judgement;
}

/** A change proposed for some nodes, before the replay confirms it. */
export interface Candidate {
  changes: Change[];
  /** The nodes it is meant to make fit: the replay looks at these only. */
  nodes: string[];
}
