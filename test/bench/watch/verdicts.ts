// Holds what --watch printed after each change against what a fresh read says: a change of
// the verdict (the headline, or the stage) must be printed, right, and soon; no change, nothing.
import type { Verdict } from './oracle.js';
import type { Line } from './tool.js';

export interface StepRecord {
  what: string;
  /** When the write was sent (ms); for the scheduler's binding, when the harness saw the pod bound. */
  at: number;
  /** The verdict before, and after as a fresh read says once the write is done. */
  before: Verdict;
  after: Verdict;
  /** What the tool printed from this change to the next one. */
  lines: Line[];
  /** The first change after the apiserver's restart or the forced expiry, if it is one. */
  follows?: 'restart' | 'expiry';
}

export interface Judged {
  record: StepRecord;
  changed: boolean;
  /** First line printed after the change, from `at` (ms); undefined when nothing was printed. */
  latencyMs: number | undefined;
  /** The verdict printed is the fresh read's (or, with no change, nothing was printed). */
  right: boolean;
  why: string;
}

const stamp = /^\d\d:\d\d:\d\d {2}/;

export function textOf(line: Line): string {
  return line.text.replace(stamp, '');
}

/** A headline line: not a stage line, not the scheduled or done notes. */
function isHeadline(text: string): boolean {
  return !text.startsWith('stage: ') && !text.startsWith('Scheduled to node ') && !/: no longer pending\. Done\.$/.test(text);
}

export function judge(record: StepRecord): Judged {
  const texts = record.lines.map(textOf);
  const headlineChanged = record.after.headline !== record.before.headline;
  const stageChanged = record.after.stage !== record.before.stage;
  const changed = headlineChanged || stageChanged;
  const latencyMs = record.lines[0] ? record.lines[0].at - record.at : undefined;
  if (!changed) return { record, changed, latencyMs, right: texts.length === 0, why: texts.length === 0 ? 'no change, nothing printed' : `no change, yet printed: ${texts.join(' | ')}` };
  const lastHeadline = texts.filter(isHeadline).at(-1);
  const headlineRight = !headlineChanged || lastHeadline === record.after.headline;
  const stageRight = !stageChanged || texts.some((t) => t.startsWith('stage: ') && t.includes(`-> ${record.after.stage}`));
  const why = texts.length === 0 ? 'missed: nothing printed' : !headlineRight ? `printed "${lastHeadline ?? '(no headline)'}", a fresh read says "${record.after.headline}"` : !stageRight ? `no stage line to ${record.after.stage}` : 'printed';
  return { record, changed, latencyMs, right: texts.length > 0 && headlineRight && stageRight, why };
}
