// Details that belong to a stage rather than to nodes: admission failures, gates, what a
// scheduled pod waits for: one section per stage (`sections`).
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { Stage, StageDetail } from '../../engine/stage.js';
import type { NeverPreempts } from '../../engine/story/preemption.js';
import { limitRangeSentence, neverPreemptsSentence, nominatedPodSentence, quotaSentence } from '../../messages/story.js';
import type { ClusterEvent } from '../../snapshot/types.js';
import { gangLines } from '../../messages/gang.js';
import { deviceBindingLines } from '../../messages/deviceBinding.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';
import { boundLines } from './bound.js';
import { fitsNowLines, reconciliationLines, statusLines, waitingLines } from '../../messages/scaleUp.js';
import { karpenterLines } from './karpenter.js';

// A controller retrying names each attempt's pod ("web-7d9c5-x7k2p"): the same refusal, counted once.
const generatedName = /pods "([a-z0-9.-]+-)[a-z0-9]{5}"/g;

/** Events alike but for the generated pod name they refused, as one (the newest's time, the counts summed). */
function sameCounted(events: readonly ClusterEvent[]): ClusterEvent[] {
  const out: ClusterEvent[] = [];
  const at = new Map<string, number>();
  for (const e of events) {
    const key = JSON.stringify([e.type, e.reason, e.involved.kind, e.involved.name, e.message.replace(generatedName, 'pods "$1"')]);
    const i = at.get(key);
    const earlier = i === undefined ? undefined : out[i];
    if (i === undefined || !earlier) {
      at.set(key, out.length);
      out.push(e);
      continue;
    }
    const newer = (e.time ?? 0) >= (earlier.time ?? 0) ? e : earlier;
    out[i] = { ...newer, count: earlier.count + e.count };
  }
  return out;
}

function eventLine(e: ClusterEvent): string {
  const when = e.time !== undefined ? new Date(e.time).toISOString() : 'unknown time';
  return escapeTerminal(`  ${when}  ${e.type}  ${e.reason}  ${e.involved.kind}/${e.involved.name}${e.count > 1 ? ` (x${e.count})` : ''}: ${e.message}`);
}

const shownPods = 12;

function preemptionLines(s: Extract<StageDetail, { stage: 'PreemptionPending' }>, colors: Palette): string[] {
  const out = [colors.bold(escapeTerminal(`Preemption on node ${s.nominatedNodeName} (this pod's priority: ${s.priority})`))];
  // Victims first, all of them: they are what the pod waits for.
  const victims = s.pods.filter((p) => p.role === 'victim');
  const others = s.pods.filter((p) => p.role !== 'victim');
  out.push(...[...victims, ...others.slice(0, shownPods)].map((p) => escapeTerminal(`  ${nominatedPodSentence(p)}`)));
  if (others.length > shownPods) out.push(`  … and ${others.length - shownPods} more pods (-o json has them all)`);
  if (!s.podsKnown) out.push(escapeTerminal(`  The pods on ${s.nominatedNodeName} were not all read: victims may be missing.`));
  else if (victims.length === 0) out.push('  No lower-priority pod there is terminating (the victims may be gone already).');
  if (!s.budgetsKnown && s.pods.some((p) => p.role === 'lowerPriority')) out.push('  PodDisruptionBudgets were not read: whether one protects a lower-priority pod is unknown.');
  return out;
}

/** What a stage's own section is drawn from: its detail, and whether Karpenter's section told the autoscaler's part. */
type Section<S extends Stage> = (s: Extract<StageDetail, { stage: S }>, colors: Palette, karpenterTold: boolean) => string[];

const indented = (lines: readonly string[]) => lines.map((l) => escapeTerminal(`  ${l}`));
const preemption = (s: { neverPreempts?: NeverPreempts }, colors: Palette) => (s.neverPreempts ? [colors.bold('Preemption'), ...indented([neverPreemptsSentence(s.neverPreempts)])] : []);
const gang = (s: Extract<StageDetail, { stage: 'WaitingForGang' | 'GangUnschedulable' }>, colors: Palette) => [colors.bold('Gang'), ...indented(gangLines(s))];

/**
 * Each stage's own section of the human report, one entry per stage (`satisfies` every stage:
 * a new stage does not compile until it says whether it has one). Karpenter's section, drawn
 * above for whichever stage carries its story, tells its NodeClaim or NodePools and what it
 * said: an autoscaler's section then adds only the existing nodes that fit now.
 */
const sections = {
  AdmissionRejected: (s, colors) => [
    ...(s.quota.length > 0 || s.limitRange.length > 0
      ? [colors.bold('Admission arithmetic'), ...indented([...s.quota.map((q) => quotaSentence(q, s.template)), ...s.limitRange.map(limitRangeSentence)])]
      : []),
    colors.bold(escapeTerminal(`Events on ${s.owner.kind}/${s.owner.name}`)),
    ...sameCounted(s.failures).slice(-5).map(eventLine),
  ],
  SchedulingGated: (s, colors) => [colors.bold('Scheduling gates'), ...indented(s.gates.map((g) => `${g}: removed by whatever controller added it; the pod waits until then`))],
  WaitingForGang: gang,
  NoScheduler: () => [],
  NodeNameSet: () => [],
  Unschedulable: (s, colors) => [...preemption(s, colors), ...(s.autoscalerStatus ? [colors.bold('Autoscaler'), ...indented(statusLines(s.autoscalerStatus))] : [])],
  WaitingForScaleUp: (s, colors, karpenterTold) => [
    ...(karpenterTold ? indented(fitsNowLines(s.fitsNow ?? [])) : [colors.bold('Autoscaler'), ...indented([...waitingLines(s), ...statusLines(s.autoscalerStatus)])]),
    ...preemption(s, colors),
  ],
  ScaleUpNotPossible: (s, colors, karpenterTold) => [
    ...(karpenterTold
      ? indented(fitsNowLines(s.reconciliation.fitsNow))
      : [colors.bold('Autoscaler'), ...indented([...reconciliationLines(s), ...statusLines(s.autoscalerStatus, s.cause === 'backoff' ? s.backedOff : [])])]),
    ...preemption(s, colors),
  ],
  PreemptionPending: preemptionLines,
  WaitingForDeviceBinding: (s, colors) => [colors.bold('Devices'), ...indented(deviceBindingLines(s))],
  GangUnschedulable: gang,
  ScheduledNotRunning: boundLines,
  NotPending: () => [],
} satisfies { [S in Stage]: Section<S> };

export function stageLines(d: Diagnosis, colors: Palette): string[] {
  const s = d.stageDetail;
  const out: string[] = karpenterLines(s, colors);
  const section = sections[s.stage] as Section<Stage>;
  out.push(...section(s, colors, out.length > 0));
  if (d.ownerEvents.length > 0 && s.stage !== 'AdmissionRejected') {
    out.push(colors.bold('Warnings on owners'), ...d.ownerEvents.slice(-5).map(eventLine));
  }
  return out;
}
