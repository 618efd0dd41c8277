// Details that belong to a stage rather than to nodes: admission failures, gates, what a
// scheduled pod waits for.
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { StageDetail } from '../../engine/stage.js';
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

export function stageLines(d: Diagnosis, colors: Palette): string[] {
  const s = d.stageDetail;
  // Karpenter's objects, for whichever stage carries its story.
  const out: string[] = karpenterLines(s, colors);
  // Karpenter's own section above tells its NodeClaim or NodePools, and what it said: the
  // autoscaler section adds only what that one does not, the existing nodes that fit now.
  const karpenterTold = out.length > 0;
  switch (s.stage) {
    case 'AdmissionRejected':
      if (s.quota.length > 0 || s.limitRange.length > 0) {
        out.push(
          colors.bold('Admission arithmetic'),
          ...s.quota.map((q) => escapeTerminal(`  ${quotaSentence(q, s.template)}`)),
          ...s.limitRange.map((b) => escapeTerminal(`  ${limitRangeSentence(b)}`)),
        );
      }
      out.push(colors.bold(escapeTerminal(`Events on ${s.owner.kind}/${s.owner.name}`)), ...sameCounted(s.failures).slice(-5).map(eventLine));
      break;
    case 'Unschedulable':
      if (s.neverPreempts) out.push(colors.bold('Preemption'), escapeTerminal(`  ${neverPreemptsSentence(s.neverPreempts)}`));
      if (s.autoscalerStatus) out.push(colors.bold('Autoscaler'), ...statusLines(s.autoscalerStatus).map((l) => escapeTerminal(`  ${l}`)));
      break;
    case 'WaitingForScaleUp':
      if (karpenterTold) out.push(...fitsNowLines(s.fitsNow ?? []).map((l) => escapeTerminal(`  ${l}`)));
      else out.push(colors.bold('Autoscaler'), ...[...waitingLines(s), ...statusLines(s.autoscalerStatus)].map((l) => escapeTerminal(`  ${l}`)));
      if (s.neverPreempts) out.push(colors.bold('Preemption'), escapeTerminal(`  ${neverPreemptsSentence(s.neverPreempts)}`));
      break;
    case 'ScaleUpNotPossible':
      if (karpenterTold) out.push(...fitsNowLines(s.reconciliation.fitsNow).map((l) => escapeTerminal(`  ${l}`)));
      else out.push(colors.bold('Autoscaler'), ...[...reconciliationLines(s), ...statusLines(s.autoscalerStatus, s.cause === 'backoff' ? s.backedOff : [])].map((l) => escapeTerminal(`  ${l}`)));
      if (s.neverPreempts) out.push(colors.bold('Preemption'), escapeTerminal(`  ${neverPreemptsSentence(s.neverPreempts)}`));
      break;
    case 'PreemptionPending':
      out.push(...preemptionLines(s, colors));
      break;
    case 'WaitingForDeviceBinding':
      out.push(colors.bold('Devices'), ...deviceBindingLines(s).map((l) => escapeTerminal(`  ${l}`)));
      break;
    case 'WaitingForGang':
    case 'GangUnschedulable':
      out.push(colors.bold('Gang'), ...gangLines(s).map((l) => escapeTerminal(`  ${l}`)));
      break;
    case 'SchedulingGated':
      out.push(colors.bold('Scheduling gates'), ...s.gates.map((g) => escapeTerminal(`  ${g}: removed by whatever controller added it; the pod waits until then`)));
      break;
    case 'ScheduledNotRunning':
      out.push(...boundLines(s, colors));
      break;
    default:
      break;
  }
  if (d.ownerEvents.length > 0 && s.stage !== 'AdmissionRejected') {
    out.push(colors.bold('Warnings on owners'), ...d.ownerEvents.slice(-5).map(eventLine));
  }
  return out;
}
