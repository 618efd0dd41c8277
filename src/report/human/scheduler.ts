// What the scheduler itself said, and whether it agrees with the replay.
import type { Diagnosis } from '../../engine/diagnosis.js';
import { pluginPurpose } from '../../messages/plugins.js';
import type { Palette } from '../color.js';

const causeText: Record<string, string> = {
  clusterChanged: 'the cluster changed since the scheduler last tried (pods or nodes came or went)',
  nodeCountDiffers: 'the scheduler saw a different number of nodes than the snapshot holds',
  unknownWording: 'the message has reasons we do not recognise (a plugin we do not model, or a scheduler profile that is not the default)',
  truncatedEvent: 'the event was cut at 1 KiB, so only its first reasons could be compared',
  nonDefaultScheduler: 'the pod uses a scheduler other than default-scheduler, whose profile may differ',
  partialData: 'part of the cluster could not be read (see below)',
};

export function schedulerLines(d: Diagnosis, colors: Palette): string[] {
  const s = d.scheduler;
  const out = [colors.bold('The scheduler said')];
  if (s.source === 'none' || !s.message) {
    out.push('  nothing: no PodScheduled=False condition and no FailedScheduling event' + (d.gaps.some((g) => g.collection === 'events') ? ' (events are missing from the input)' : ''));
    return out;
  }
  out.push(`  ${s.source === 'condition' ? 'PodScheduled condition' : 'FailedScheduling event'}${s.conditionReason ? ` (${s.conditionReason})` : ''}: ${s.message}`);
  if (s.agrees === true) {
    out.push(`  ${colors.green('Agrees')}: for every node, the first failing plugin we replay gives the same counts (${tally(s.schedulerTally)}).`);
  } else if (s.agrees === false) {
    out.push(`  ${colors.red('Differs')}: ${s.differences.map((x) => `${x.key}: scheduler ${x.scheduler}, replay ${x.engine}`).join('; ')}.`);
    for (const cause of s.likelyCauses) out.push(`  - likely: ${causeText[cause] ?? cause}`);
  } else if (s.parsed) {
    // Nothing to compare with (nodes not read): explain the scheduler's counts instead.
    const pre = s.parsed.preFilterReason;
    if (pre) out.push(`  - every node, before any was looked at: ${pre.plugin ? `${pre.plugin}: ` : ''}${pre.text}`);
    for (const r of s.parsed.reasons) {
      const purpose = r.plugin ? ` (${r.plugin}: ${pluginPurpose[r.plugin]})` : '';
      out.push(`  - ${r.count} node${r.count === 1 ? '' : 's'}: ${r.text}${purpose}`);
    }
    if (s.parsed.unknownReasons.length > 0) out.push(`  (wordings not recognised: ${s.parsed.unknownReasons.join('; ')})`);
  }
  if (s.agrees !== false && s.likelyCauses.includes('truncatedEvent')) out.push(`  - ${causeText['truncatedEvent']}`);
  return out;
}

function tally(t: Record<string, number>): string {
  return Object.entries(t).map(([k, v]) => `${v} ${k}`).join(', ') || 'none';
}
