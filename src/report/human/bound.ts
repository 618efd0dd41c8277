// The ScheduledNotRunning section of the human report: what happened since the scheduler bound
// the pod (words in messages/bound.ts), then the pod's warnings by reason, newest first.
import type { StageDetail } from '../../engine/stage.js';
import { asOfLine, initRunningLine, kubeletLine, nodeLine, scheduledLine, waitLine, warningLine } from '../../messages/bound.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';

/** Warning reasons shown; the rest are in -o json. */
const shownWarnings = 6;

export function boundLines(s: Extract<StageDetail, { stage: 'ScheduledNotRunning' }>, colors: Palette): string[] {
  const asOf = asOfLine(s);
  const story = [
    scheduledLine(s),
    nodeLine(s),
    kubeletLine(s),
    ...(s.initRunning ? [initRunningLine(s.initRunning, s.asOf)] : []),
    ...s.waiting.map(waitLine),
  ];
  const out = [colors.bold(`Since it was scheduled${asOf ? escapeTerminal(` (${asOf})`) : ''}`), ...story.map((line) => escapeTerminal(`  ${line}`))];
  if (s.warnings.length > 0) {
    const more = s.warnings.length - shownWarnings;
    out.push(colors.bold('Warnings on the pod, newest first'), ...s.warnings.slice(0, shownWarnings).map((g) => escapeTerminal(`  ${warningLine(g)}`)));
    if (more > 0) out.push(`  (${more} more reasons in -o json)`);
  }
  return out;
}
