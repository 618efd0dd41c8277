// What the engine makes of Karpenter's objects beside the scheduler's story: a NodeClaim's
// progress and the reconciliation of Karpenter's refusal with the replay of its NodePools
// (index.ts builds them; story/autoscaler.ts carries them).
import type { KarpenterConditionState } from './nodepool.js';

/** The steps of a NodeClaim's life, in order; the first not True is what it waits for. */
export const nodeClaimSteps = ['Launched', 'Registered', 'Initialized', 'Ready'] as const;
export type NodeClaimStep = (typeof nodeClaimSteps)[number];

export interface NodeClaimProgress {
  name: string;
  /** false: the input has no NodeClaim of that name (not read, or already deleted). */
  found: boolean;
  /** Its karpenter.sh/nodepool label. */
  nodePool?: string;
  createdAt?: number;
  /** status.nodeName: the node it registered as. */
  nodeName?: string;
  /** Launched, Registered, Initialized, Ready, as far as it has them. */
  conditions: KarpenterConditionState[];
  /** The first step not True yet; absent when Ready is True. */
  waitingFor?: NodeClaimStep;
  /** Launched is not True with a reason from the launch (the cloud provider's refusal). */
  launchFailing?: KarpenterConditionState;
  /** The newest time in the input, to measure ages against (the engine has no clock). */
  asOf?: number;
}

/** What we make of Karpenter's refusal beside our own replay of its NodePools. */
export interface KarpenterReconciliation {
  /** Nothing below: every NodePool fails our checks too, and each taint or limit Karpenter named is among their problems. */
  agrees: boolean;
  /** NodePools our checks pass although Karpenter said no: it may know more (instance types, offerings, daemonset overhead). */
  fittingNodePools: string[];
  /** What Karpenter named (a taint, a NodePool's limit) that no NodePool's problems show. */
  unexplained: string[];
}
