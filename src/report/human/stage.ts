// Details that belong to a stage rather than to nodes: admission failures, gates, what a
// scheduled pod waits for.
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { ClusterEvent } from '../../snapshot/types.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';
import { boundLines } from './bound.js';

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
