// --watch: diagnose, wait for a change of the pod (or the scope's pods), their events or the
// nodes (WATCH requests: still read-only), diagnose again, and print what changed. Ends with
// exit 0 and a clear line once the pod runs (or, for a triage, once nothing is pending).
// A pod bound to a node is scheduled, but not yet running until its kubelet says so: that is
// a change worth a line, not the end.
import { stageBriefly } from '../messages/stages.js';
import type { Diagnosis } from '../engine/diagnosis.js';
import type { Query } from '../engine/target.js';
import type { TriageScope } from '../engine/triage.js';
import { summarySentence } from '../messages/summary.js';
import { diagnosePod, triagePods } from '../index.js';
import { escapeTerminal } from '../report/escape.js';
import { triageEntry } from '../report/triage/group.js';
import { presentTriage } from '../report/triage/present.js';
import type { TriageV1 } from '../report/triage/contract.js';
import type { Writer } from '../report/writer.js';
import type { Source } from '../sources/source.js';
import type { expired, Watcher } from '../sources/live/watch.js';
import { collectNowAndThen, stopCollecting } from './collect.js';
import { exitCodes } from './exit-codes.js';
import { memoryLine, timingsWanted } from './timings.js';

const quiet = () => undefined;

function stamp(): string {
  return new Date().toISOString().slice(11, 19);
}

function say(out: Writer, line: string): void {
  out.write(`${stamp()}  ${escapeTerminal(line)}\n`);
}

/** The line that ends the watch, or undefined while the pod still waits. */
function endOf(d: Diagnosis): string | undefined {
  const pod = `${d.pod.namespace}/${d.pod.name ?? ''}`;
  if (d.pod.phase === 'Running') return `Pod ${pod} is running${d.pod.nodeName ? ` on node ${d.pod.nodeName}` : ''}: no longer pending. Done.`;
  if (d.stage === 'NotPending') return `Pod ${pod} is ${d.pod.phase ?? 'not pending'}: no longer pending. Done.`;
  return undefined;
}

export async function watchPod(source: Source & { watcher: NonNullable<Source['watcher']> }, query: Query, out: Writer): Promise<number> {
  // An owner (deploy/web) resolves to a different pod as its pods come and go: watch them all.
  const w = source.watcher({ namespace: query.namespace, ...(query.name.includes('/') ? {} : { pod: query.name }) });
  try {
    let last: Diagnosis | undefined;
    let trigger = '';
    for (;;) {
      const marks = await w.mark();
      const outcome = diagnosePod(await source.read(query, quiet), query);
      if (outcome.kind === 'notFound') {
        say(out, `${outcome.what} ${query.namespace}/${query.name} not found${last ? ' any more (deleted?)' : ''}.`);
        return exitCodes.notFound;
      }
      const d = outcome.diagnosis;
      if (timingsWanted()) process.stderr.write(`${memoryLine()}\n`);
      const headline = summarySentence(d);
      if (!last) say(out, headline);
      else {
        if (last.stage !== d.stage) say(out, `stage: ${last.stage} -> ${d.stage}${d.pod.nodeName && !last.pod.nodeName ? `, bound to node ${d.pod.nodeName}` : ''} (${trigger})`);
        if (summarySentence(last) !== headline) say(out, headline);
      }
      const end = endOf(d);
      if (end) {
        say(out, end);
        return exitCodes.ok;
      }
      if (d.stage === 'ScheduledNotRunning' && last?.stage !== 'ScheduledNotRunning') say(out, `Scheduled to node ${d.pod.nodeName ?? ''}; watching until its kubelet reports it running.`);
      last = d;
      await collectNowAndThen();
      trigger = await nextChange(w, marks);
    }
  } finally {
    w.close();
    stopCollecting();
  }
}

function groupLines(t: TriageV1): string[] {
  return t.groups.map((g) => `  ${g.count} x [${stageBriefly(g.cause.stage)}${g.cause.plugin ? `, ${g.cause.plugin}` : ''}] ${g.headline}`);
}

export async function watchTriage(source: Source & { watcher: NonNullable<Source['watcher']> }, scope: TriageScope, out: Writer): Promise<number> {
  const w = source.watcher({ namespace: scope.namespace });
  const where = scope.namespace === undefined ? 'all namespaces' : `namespace ${scope.namespace}`;
  try {
    let last: string[] | undefined;
    let trigger = '';
    for (;;) {
      const marks = await w.mark();
      const snapshot = await source.readTriage(scope, quiet);
      const t = presentTriage({ scope, source: snapshot.source, ...triagePods(snapshot, scope, triageEntry) });
      if (timingsWanted()) process.stderr.write(`${memoryLine()}\n`);
      if (t.counts.pending === 0) {
        say(out, `No pending pods left in ${where}. Done.`);
        return exitCodes.ok;
      }
      const lines = groupLines(t);
      if (!last || lines.join('\n') !== last.join('\n')) {
        say(out, `${t.counts.pending} pending pod${t.counts.pending === 1 ? '' : 's'} in ${where}, ${t.counts.groups} cause${t.counts.groups === 1 ? '' : 's'}${last ? ` (${trigger})` : ''}:`);
        for (const line of lines) out.write(`${escapeTerminal(line)}\n`);
      }
      last = lines;
      await collectNowAndThen();
      trigger = await nextChange(w, marks);
    }
  } finally {
    w.close();
    stopCollecting();
  }
}

/** The watcher's word for a watch that could not resume (typed against it; a value import would load the live source). */
const historyExpired: typeof expired = 'history expired';

/** Waits for a change; says what changed, for the lines printed if the diagnosis changes too. */
async function nextChange(w: Watcher, marks: string[]): Promise<string> {
  const what = await w.changed(marks);
  return what === historyExpired ? "read again after the watch's history expired" : `after a change of ${what}`;
}
