// The documented -o json / -o yaml document, whypending/v1, as a type: what present() returns.
// schema/diagnosis.v1.json says the same for other programs (the tests validate every JSON
// output against it). Fields are only added within a version.
import type { NotChecked, Note, PodSummary, Stage, StageDetail, Verdict } from '../engine/diagnosis.js';
import type { LikelyCause, TallyDifference } from '../engine/agreement.js';
import type { PluginName, StatusCode } from '../engine/plugins.js';
import type { ReasonDetail } from '../engine/reasons.js';
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
}

export interface DiagnosisV1 {
  apiVersion: 'whypending/v1';
  kind: 'Diagnosis';
  /** One sentence naming the cause. */
  summary: string;
  pod: PodSummary;
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
}
