// The documented -o json / -o yaml document of a triage (no pod name), whypending/v1 kind
// Triage: what presentTriage() returns. schema/triage.v1.json says the same for other programs.
import type { FixClass } from '../../engine/fixes/index.js';
import type { Stage } from '../../engine/stage.js';

export interface TriageCauseV1 {
  stage: Stage;
  plugin?: string;
  reason?: string;
  /** What tells this cause apart from others of the same plugin and reason (a taint, a resource); opaque. */
  key: string;
  /** ScaleUpNotPossible refusals: the autoscaler's reasons as plugins or its own kinds, sorted. */
  autoscalerReasons?: string[];
}

export interface TriagePodV1 {
  pod: { namespace: string; name: string };
  /** The same stage a single diagnosis of the pod (kubectl why-pending NAME) reports. */
  stage: Stage;
  nodeName?: string;
  nominatedNodeName?: string;
}

export interface TriageOwnerV1 {
  /** The top of the pods' owner chain (a Deployment above its ReplicaSet); absent for pods without one. */
  owner?: { kind: string; namespace: string; name: string };
  pods: number;
}

export interface TriageFixV1 {
  /** As a diagnosis's fixes[].class. */
  class: FixClass;
  change: string;
  yaml?: string;
  command?: string;
  /** How many nodes it makes fit, replayed for the group's first pod. */
  makesFit: number;
}

export interface TriageGroupV1 {
  cause: TriageCauseV1;
  /** The headline of the group's first pod, as `kubectl why-pending` prints it for that pod. */
  headline: string;
  count: number;
  owners: TriageOwnerV1[];
  pods: TriagePodV1[];
  /** The first pod's confirmed fixes that hold for the whole group (node changes; pod-spec changes when one owner has every pod). */
  fixes: TriageFixV1[];
}

export interface TriageV1 {
  apiVersion: 'whypending/v1';
  kind: 'Triage';
  /** The why-pending release that wrote it. */
  version: string;
  source: { kind: 'dump' | 'live' | 'capture'; description: string };
  scope: { namespace: string | null; selector?: string };
  /** Pending pods in the scope, and the causes they fall into. */
  counts: { pending: number; groups: number };
  groups: TriageGroupV1[];
}
