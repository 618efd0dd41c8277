// What the scheduler itself said, and whether it agrees with the replay.
import type { Diagnosis } from '../../engine/diagnosis.js';
import { likelyCauseText } from '../../messages/likelyCauses.js';
import type { Detail } from '../../engine/model.js';
import type { PluginText } from '../../messages/plugin.js';
import { pluginNamed, plugins } from '../../messages/registry.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';

/**
 * For each plugin the scheduler words one way whatever the cause (its descriptor's
 * `oneWording`), the nodes it fails first counted by cause: one line per such plugin.
 */
function causeLines(d: Diagnosis): string[] {
  return plugins.flatMap((plugin) => {
    const one = (plugin as PluginText<Detail>).oneWording;
    if (!one) return [];
    const counts = new Map<string, number>();
    for (const n of d.nodes) {
      const first = n.reasons[0];
      if (first?.plugin !== plugin.name) continue;
      const cause = one.cause(first.detail);
      counts.set(cause, (counts.get(cause) ?? 0) + 1);
    }
    // One cause says no more than the table: the breakdown is for several.
    if (counts.size < 2) return [];
    const causes = [...counts].sort((a, b) => b[1] - a[1]).map(([cause, count]) => `${count} ${cause}`).join(', ');
    return [escapeTerminal(`  - "${one.says}" on those nodes, by cause: ${causes}`)];
  });
}

export function schedulerLines(d: Diagnosis, colors: Palette): string[] {
  const s = d.scheduler;
  const out = [colors.bold('The scheduler said')];
  if (s.source === 'none' || !s.message) {
    // Silence is evidence only where events were captured.
    const eventsMissing = d.gaps.some((g) => g.collection === 'events');
    out.push(`  nothing: no PodScheduled=False condition, and ${eventsMissing ? 'the input has no events to look for a FailedScheduling event in' : 'no FailedScheduling event among the events read'}`);
    return out;
  }
  out.push(escapeTerminal(`  ${s.source === 'condition' ? 'PodScheduled condition' : 'FailedScheduling event'}${s.conditionReason ? ` (${s.conditionReason})` : ''}: ${s.message}`));
  if (s.agrees === true) {
    out.push(`  ${colors.green('Agrees')}: ${escapeTerminal(`for every node, the first failing plugin found here gives the same counts (${tally(s.schedulerTally)}).`)}`);
    out.push(...causeLines(d));
  } else if (s.agrees === false) {
    out.push(`  ${colors.red('Differs')}: ${escapeTerminal(s.differences.map((x) => `${x.key}: scheduler ${x.scheduler}, here ${x.engine}`).join('; '))}.`);
    for (const cause of s.likelyCauses) out.push(escapeTerminal(`  - likely: ${likelyCauseText(cause, s.evidence)}`));
    const disputed = d.nodes.filter((n) => n.disputed).map((n) => n.name);
    if (disputed.length > 0) out.push(escapeTerminal(`  - in dispute, so FITS "unknown": ${disputed.slice(0, 5).join(', ')}${disputed.length > 5 ? ` and ${disputed.length - 5} more` : ''} (found to fit here, where the scheduler said no node does, and nothing dated since its attempt explains it)`));
  } else if (s.differences.length > 0) {
    // Every difference falls on a plugin the replay could not check: neither agreement nor not.
    out.push(`  ${colors.yellow('Cannot confirm')}: ${escapeTerminal(s.differences.map((x) => `${x.key}: scheduler ${x.scheduler}, here ${x.engine}`).join('; '))} (not checked here; see below).`);
  } else if (s.parsed) {
    // Nothing to compare with (nodes not read): explain the scheduler's counts instead.
    const pre = s.parsed.preFilterReason;
    if (pre) out.push(escapeTerminal(`  - every node, before any was looked at: ${pre.plugin ? `${pre.plugin}: ` : ''}${pre.text}`));
    for (const r of s.parsed.reasons) {
      const purpose = r.plugin ? ` (${r.plugin}: ${pluginNamed(r.plugin).purpose})` : '';
      out.push(escapeTerminal(`  - ${r.count} node${r.count === 1 ? '' : 's'}: ${r.text}${purpose}`));
    }
    // A gang member that fits reads the group's words: about the group (see Gang), not the nodes.
    if (d.stage === 'GangUnschedulable' && s.message.startsWith('pod group is unschedulable')) out.push('  - about the group, not this pod: placed alone it fits (see Gang above)');
    else if (s.parsed.unknownReasons.length > 0) out.push(escapeTerminal(`  (wordings not recognised: ${s.parsed.unknownReasons.join('; ')})`));
  }
  if (s.agrees !== false && s.likelyCauses.includes('truncatedEvent')) out.push(`  - ${likelyCauseText('truncatedEvent', s.evidence)}`);
  return out;
}

function tally(t: Record<string, number>): string {
  return Object.entries(t).map(([k, v]) => `${v} ${k}`).join(', ') || 'none';
}
