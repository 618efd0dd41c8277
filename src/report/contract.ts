// The documented -o json / -o yaml document, whypending/v1, as a type: what present() returns.
// schema/diagnosis.v1.json says the same for other programs (the tests validate every JSON
// output against it). Fields are only added within a version.
import type { Note, PodSummary } from '../engine/diagnosis.js';
import type { NotChecked, Verdict } from '../engine/judge.js';
import type { Stage, StageDetail } from '../engine/stage.js';
import type { LikelyCause, TallyDifference } from '../engine/agreement.js';
import type { DisagreementEvidence } from '../engine/disagreement.js';
import type { ClusterRelease } from '../engine/release.js';
import type { Change, FixCaution, FixClass, SpecTarget } from '../engine/fixes/index.js';
import type { PluginName, StatusCode } from '../engine/names.js';
import type { ReasonDetail } from '../engine/reasons.js';
import type { NominatedPod } from '../engine/nominated.js';
import type { RequestOrigin } from '../engine/resources/origins.js';
import type { ClusterEvent, Gap } from '../snapshot/types.js';

/** A value as JSON.stringify writes it: bigint amounts as decimal strings, dates as ISO strings. */
export type AsJson<T> = T extends bigint
  ? string
  : T extends Date
    ? string
    : T extends readonly (infer U)[]
      ? AsJson<U>[]
      : T extends object
        ? { [K in keyof T]: AsJson<T[K]> }
        : T;

type KeysOfEach<T> = T extends unknown ? keyof T : never;

/**
 * Each kind's own data, written beside plugin, code and message. `never` (so present() stops
 * compiling) if a kind ever had a field of one of those names, which would overwrite it.
 */
type ReasonData = [Extract<KeysOfEach<ReasonDetail>, 'plugin' | 'code' | 'message'>] extends [never] ? AsJson<ReasonDetail> : never;

/** One failing reason: the scheduler's plugin and code, our kind and its data, and the English. */
export type ReasonV1 = { plugin: PluginName; code: StatusCode; message: string } & ReasonData;

/** Resource name to amount in Kubernetes notation ("1500m", "4Gi"), sorted by name. */
export type QuantitiesV1 = Record<string, string>;

interface RequestsV1 {
  total: QuantitiesV1;
  containers: QuantitiesV1;
  sidecars: QuantitiesV1;
  initPeak: QuantitiesV1;
  podLevel: QuantitiesV1;
  overhead: QuantitiesV1;
  origins: RequestOrigin[];
}

export interface NodeVerdictV1 {
  name: string;
  /** True only when the verdict is `fits`. */
  fits: boolean;
  verdict: Verdict;
  /** The plugin of the first reason: what the scheduler reports for this node. */
  firstPlugin?: PluginName;
  /** Every failing reason, in filter order. */
  reasons: ReasonV1[];
  /** Plugins not checked on this node; absent when every one was. */
  unchecked?: PluginName[];
  /** Pods nominated to the node that add a failing reason (the scheduler's first pass). */
  nominated?: { pods: NominatedPod[]; decides: boolean };
  /** Found to fit where the scheduler said no node does, nothing dated since explaining it: unproven. */
  disputed?: true;
}

interface CountsV1 {
  nodes: number;
  fitting: number;
  unproven: number;
  byFirstPlugin: Partial<Record<PluginName, number>>;
}

interface SchedulerV1 {
  source: 'condition' | 'event' | 'none';
  message?: string;
  conditionReason?: string;
  truncated: boolean;
  /** null: nothing to compare, or only unchecked plugins differ. */
  agrees: boolean | null;
  schedulerTally: Record<string, number>;
  engineTally: Record<string, number>;
  differences: TallyDifference[];
  likelyCauses: LikelyCause[];
  evidence?: DisagreementEvidence;
}

/** A change that makes the pod fit some node, confirmed by replaying the filters with it made. */
export interface FixV1 {
  /** What kind of decision it asks for, safest first: correction, wait, capacity, policy (fixes are in that order). */
  class: FixClass;
  /** What a person must weigh before making it, as data (its words are in `change`); absent when nothing. */
  cautions?: AsJson<FixCaution>[];
  /** The plugin whose failure the (first) change clears. */
  cause: PluginName;
  /** What to change and where, in one sentence. */
  change: string;
  /** The pod spec fields to set, under the owner's pod template path (or the pod's spec). */
  yaml?: string;
  /** kubectl command lines, one per line. */
  command?: string;
  /** Nodes the replay finds fit with the change made (a wait: the node it frees); empty only for a wait on nodes still to come. */
  makesFit: string[];
  /** Nodes the change targets that the replay cannot call fit for a gap in the input; absent when none. */
  unproven?: string[];
  /** Nodes the change targets that still fail, with the plugins that block them; absent when none. */
  stillBlockedBy?: Record<string, PluginName[]>;
  /** Whose pod spec the YAML goes into: the top owner's template, or the pod (to recreate). */
  target?: AsJson<SpecTarget>;
  /** The changes as data, replayed together. */
  changes: AsJson<Change>[];
}

export interface DiagnosisV1 {
  apiVersion: 'whypending/v1';
  kind: 'Diagnosis';
  /** The version of kubectl why-pending that wrote it (package.json's). */
  version: string;
  /** One sentence naming the cause. */
  summary: string;
  pod: PodSummary;
  /** The cluster's version, and the release whose rules were replayed. */
  cluster: ClusterRelease;
  stage: Stage;
  /** Amounts (a quota's asks, used, hard) as decimal strings in the scheduler's units. */
  stageDetail: AsJson<StageDetail>;
  /** Absent when there is no Pod object. */
  requests?: RequestsV1;
  preFilter: ReasonV1[];
  nodes: NodeVerdictV1[];
  counts: CountsV1;
  notChecked: NotChecked[];
  scheduler: SchedulerV1;
  ownerEvents: ClusterEvent[];
  notes: AsJson<Note>[];
  /** Only the gaps that matter for this pod. */
  gaps: Gap[];
  /** What would make it fit: each fix replayed through the filters before it is offered. */
  fixes: FixV1[];
}
