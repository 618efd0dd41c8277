// Fixes as data: each change is what a person would edit (a toleration of the pod, a request,
// a node's label, a cordon), small enough to replay through the engine's own filters on a
// patched copy of the snapshot. The English, the YAML and the kubectl command are made in
// src/messages/fixes.ts from these.
import type { V1NodeSelectorRequirement, V1Taint, V1Toleration } from '@kubernetes/client-node';
import type { ObjectRef } from '../events.js';
import type { Judgement } from '../judge.js';
import type { RuleContext, RuleSet } from '../model.js';
import type { PluginName } from '../plugins.js';

/** Where a request is set: a container, an init container, or the pod (`spec.resources`). */
export type RequestPlace = { in: 'containers' | 'initContainers'; container: string } | { in: 'pod' };

export type Change =
  /** Add this toleration, or put it in place of the pod's near-miss toleration `replaces`. */
  | { kind: 'tolerateTaint'; cause: 'TaintToleration'; taint: V1Taint; toleration: V1Toleration; replaces?: { index: number; toleration: V1Toleration } }
  /** Set one request (amounts in the scheduler's units: millicores for cpu, bytes for memory). */
  | { kind: 'setRequest'; cause: 'NodeResourcesFit'; place: RequestPlace; resource: string; from: bigint; to: bigint }
  /** Give these nodes these labels (and take these away). */
  | { kind: 'labelNodes'; cause: 'NodeAffinity'; nodes: string[]; set: Record<string, string>; remove: string[] }
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
  | { kind: 'uncordon'; cause: 'NodeUnschedulable'; node: string }
  /** What preemption would remove from the node: lower-priority pods only. */
  | {
      kind: 'preempt';
      cause: PluginName;
      node: string;
      /** `budgets`: the PodDisruptionBudgets removing this victim would violate (the scheduler's last resort). */
      victims: { namespace: string; name: string; priority: number; budgets?: string[] }[];
      /** False when PodDisruptionBudgets were not read: the scheduler may then pick other victims. */
      budgetsKnown: boolean;
    };

/** The object whose pod spec a change edits: the top owner's pod template, or the pod itself. */
export type SpecTarget =
  | { kind: 'template'; owner: ObjectRef; path: readonly string[] }
  /** No owner that recreates it: the pod must be deleted and created again with the change. */
  | { kind: 'pod'; pod: { namespace: string; name: string } };

export interface Fix {
  /** The plugin whose failure the (first) change clears. */
  cause: PluginName;
  /** Replayed together, as one. */
  changes: Change[];
  /** Present when a change edits the pod's spec. */
  spec?: SpecTarget;
  /** Nodes whose verdict becomes `fits` in the replay. Never empty. */
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
