// Words for the story of a bound pod that is not running (engine/story/bound.ts): when it was
// scheduled, the node's Ready condition, what the kubelet has said, the waiting containers and
// the warnings. Ages are measured against the newest time in the input, never a clock.
import type { ConditionState, ContainerWait, InitRunning } from '../engine/story/bound.js';
import type { EventGroup } from '../engine/story/events.js';
import type { StageDetail } from '../engine/stage.js';
import { plural } from './format.js';

type Bound = Extract<StageDetail, { stage: 'ScheduledNotRunning' }>;

/** An instant as kubectl prints one: ISO 8601 to the second, UTC. */
export function instant(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A duration the way kubectl's AGE column writes it: 45s, 12m, 3h20m, 4d. */
export function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 === 0 || h >= 8 ? `${h}h` : `${h}h${m % 60}m`;
  return `${Math.floor(h / 24)}d`;
}

/** "19m ago (2026-03-07T13:02:00Z)", ago meaning before `asOf`; the instant alone without it. */
function when(ms: number, asOf: number | undefined): string {
  return asOf === undefined ? instant(ms) : `${age(asOf - ms)} ago (${instant(ms)})`;
}

export function asOfLine(d: Bound): string | undefined {
  return d.asOf === undefined ? undefined : `ages are counted back from ${instant(d.asOf)}, the newest time in the input`;
}

export function scheduledLine(d: Bound): string {
  return d.scheduledAt === undefined ? `bound to node ${d.nodeName} (when is not recorded)` : `scheduled to node ${d.nodeName} ${when(d.scheduledAt, d.asOf)}`;
}

function conditionText(c: ConditionState, asOf: number | undefined): string {
  const why = [c.reason, c.message].filter((x): x is string => Boolean(x)).join(': ');
  const since = c.since !== undefined ? `, since ${when(c.since, asOf)}` : '';
  const heartbeat = c.heartbeat !== undefined && c.status !== 'True' ? `; last heartbeat ${when(c.heartbeat, asOf)}` : '';
  return `Ready=${c.status}${why ? ` (${why})` : ''}${since}${heartbeat}`;
}

export function nodeLine(d: Bound): string {
  if (d.nodeExists === false) return `node ${d.nodeName} no longer exists: the pod will never run there`;
  if (!d.nodeReadyCondition) return d.nodeExists === undefined ? `node ${d.nodeName} was not read` : `node ${d.nodeName} has no Ready condition`;
  return `node ${d.nodeName}: ${conditionText(d.nodeReadyCondition, d.asOf)}`;
}

export function kubeletLine(d: Bound): string {
  if (d.containerStatusesReported) {
    return d.kubeletStartTime !== undefined ? `the kubelet took the pod up ${when(d.kubeletStartTime, d.asOf)}` : 'the kubelet has reported container statuses';
  }
  const cause = d.nodeReady === false ? 'the node is not Ready, so its kubelet is down or cut off' : 'the kubelet has not taken the pod up (is it running, and can it reach the API server?)';
  return `no container status has been reported since scheduling: ${cause}`;
}

function restarts(count: number | undefined): string {
  return count ? `, restarted ${plural(count, 'time')}` : '';
}

export function waitLine(w: ContainerWait): string {
  const last = w.lastTermination;
  const exit = last ? `, last run exited ${last.exitCode}${last.reason ? ` (${last.reason})` : ''}` : '';
  return `${w.init ? 'init container ' : ''}${w.container}: ${w.reason}${restarts(w.restartCount)}${exit}${w.message ? `: ${w.message}` : ''}`;
}

export function initRunningLine(r: InitRunning, asOf: number | undefined): string {
  const started = r.startedAt !== undefined ? ` since ${when(r.startedAt, asOf)}` : '';
  return `init container ${r.container} is still running${started}${restarts(r.restartCount)}: the pod's containers start only once it exits 0`;
}

export function warningLine(g: EventGroup): string {
  const more = g.moreMessages > 0 ? ` | and ${plural(g.moreMessages, 'other message')}` : '';
  const time = g.time !== undefined ? `, last ${instant(g.time)}` : '';
  return `${g.reason} (x${g.count}${time}, ${g.reporter || 'unknown source'}): ${g.messages.join(' | ')}${more}`;
}

/** The stage sentence: where the bound pod is stuck, from the strongest evidence down. */
export function boundSentence(pod: string, d: Bound): string {
  const head = `Pod ${pod} is scheduled to ${d.nodeName}`;
  if (d.nodeExists === false) return `${head} (node ${d.nodeName} no longer exists) but not running.`;
  const notReady = d.nodeReady === false ? ` (node ${d.nodeName} is NotReady${d.nodeReadyCondition?.reason ? `: ${d.nodeReadyCondition.reason}` : ''})` : '';
  if (!d.containerStatusesReported) return `${head}${notReady} but not running: its kubelet has reported no container status since.`;
  const waits = d.waiting.map((w) => `${w.init ? 'init ' : ''}${w.container}: ${w.reason}`);
  const init = d.initRunning ? [`init ${d.initRunning.container} still running`] : [];
  const all = [...init, ...waits];
  // A reason without a message (ContainerCreating) says nothing of the cause; the newest warning does.
  const newest = d.warnings[0];
  const explained = d.waiting.some((w) => w.message) || !newest;
  const warning = explained ? '' : ` Newest warning: ${newest.reason}${newest.count > 1 ? ` (x${newest.count})` : ''}: ${newest.messages[0] ?? ''}`;
  return `${head}${notReady} but not running${all.length > 0 ? `: ${all.join(', ')}` : ''}.${warning}`;
}
