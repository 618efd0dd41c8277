// The scheduler's own account of a Pending pod, read from its message. See catalog.ts for the
// wordings by release and parse.ts for the message's shape.
import type { ParsedSchedulerMessage } from './parse.js';

export { type SchedulerCatalog } from './catalog.js';
export { isCutAtEventLimit, parseSchedulerMessage, type MessageSource, type ParsedReason, type ParsedSchedulerMessage } from './parse.js';

/**
 * Reason counts summed per filter plugin; reasons no plugin owns (unknown wordings, whose texts
 * stay in `unknownReasons`, and the framework's own) under '?'. A node counts once per reason,
 * so NodeResourcesFit can count a node once per missing resource, as the scheduler prints it.
 * A PreFilter rejection stands for every node.
 */
export function countsByPlugin(parsed: ParsedSchedulerMessage): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (key: string, n: number): void => {
    counts.set(key, (counts.get(key) ?? 0) + n);
  };
  // A companion repeats a specific reason's nodes; it stands for them only when alone.
  const specific = new Set(parsed.reasons.filter((r) => !r.companion).map((r) => r.plugin));
  for (const reason of parsed.reasons) {
    if (!(reason.companion && specific.has(reason.plugin))) add(reason.plugin ?? '?', reason.count);
  }
  if (parsed.kind === 'preFilter' && parsed.reasons.length === 0 && parsed.totalNodes !== undefined) {
    add(parsed.preFilterReason?.plugin ?? '?', parsed.totalNodes);
  }
  return counts;
}
