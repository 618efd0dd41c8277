// Details that belong to a stage rather than to nodes: admission failures, gates, what a
// scheduled pod waits for.
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { ClusterEvent } from '../../snapshot/types.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';

function eventLine(e: ClusterEvent): string {
  const when = e.time !== undefined ? new Date(e.time).toISOString() : 'unknown time';
  return escapeTerminal(`  ${when}  ${e.type}  ${e.reason}  ${e.involved.kind}/${e.involved.name}${e.count > 1 ? ` (x${e.count})` : ''}: ${e.message}`);
}

export function stageLines(d: Diagnosis, colors: Palette): string[] {
  const s = d.stageDetail;
  const out: string[] = [];
  switch (s.stage) {
    case 'AdmissionRejected':
      out.push(colors.bold(escapeTerminal(`Events on ${s.owner.kind}/${s.owner.name}`)), ...s.failures.slice(-5).map(eventLine));
      break;
    case 'SchedulingGated':
      out.push(colors.bold('Scheduling gates'), ...s.gates.map((g) => escapeTerminal(`  ${g}: removed by whatever controller added it; the pod waits until then`)));
      break;
    case 'ScheduledNotRunning':
      if (s.waiting.length > 0) {
        out.push(colors.bold('Waiting containers'), ...s.waiting.map((w) => escapeTerminal(`  ${w.init ? 'init ' : ''}${w.container}: ${w.reason}${w.message ? `: ${w.message}` : ''}`)));
      }
      if (s.events.length > 0) out.push(colors.bold('Pod events'), ...s.events.slice(-8).map(eventLine));
      break;
    default:
      break;
  }
  if (d.ownerEvents.length > 0 && s.stage !== 'AdmissionRejected') {
    out.push(colors.bold('Warnings on owners'), ...d.ownerEvents.slice(-5).map(eventLine));
  }
  return out;
}
