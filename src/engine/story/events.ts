// Events told as a story: the pod's warnings, one entry per reason. The event correlator already
// folds identical events into one with a count; what is left is the same reason with different
// messages (the kubelet's "Failed" for the pull error, then for ErrImagePull, then for
// ImagePullBackOff), which a reader wants as one line with its distinct messages.
import type { ClusterEvent } from '../../snapshot/types.js';

/** Events of one reason: counts summed, distinct messages newest first. */
export interface EventGroup {
  reason: string;
  /** Normal or Warning, as the newest event of the reason says. */
  type: string;
  count: number;
  /** The newest occurrence, ms since the epoch. */
  time?: number;
  /** Distinct messages, newest first, at most three. */
  messages: string[];
  /** Distinct messages beyond those kept. */
  moreMessages: number;
  reporter: string;
}

/** Distinct messages kept per reason, newest first. */
const messagesPerReason = 3;

/** Groups events by reason, newest group first; messages newest first, counts summed. */
export function groupByReason(events: readonly ClusterEvent[]): EventGroup[] {
  const newestFirst = [...events].sort((a, b) => (b.time ?? 0) - (a.time ?? 0));
  const groups = new Map<string, { group: EventGroup; messages: Set<string> }>();
  for (const event of newestFirst) {
    let entry = groups.get(event.reason);
    if (!entry) {
      entry = { group: { reason: event.reason, type: event.type, count: 0, ...(event.time !== undefined ? { time: event.time } : {}), messages: [], moreMessages: 0, reporter: event.reporter }, messages: new Set() };
      groups.set(event.reason, entry);
    }
    entry.group.count += event.count;
    if (entry.messages.has(event.message)) continue;
    entry.messages.add(event.message);
    if (entry.group.messages.length < messagesPerReason) entry.group.messages.push(event.message);
    else entry.group.moreMessages += 1;
  }
  return [...groups.values()].map((e) => e.group);
}
