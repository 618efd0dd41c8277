// The only module that touches `process`: parses arguments, picks the source, runs the engine
// with the registry's rules (src/messages/registry.ts), calls the reporter `-o` names (report/index.ts),
// and turns every failure into one line and an exit code.
import { CommanderError } from 'commander';
import { nodeIndex } from '../engine/facts.js';
import { withDerivedGaps } from '../engine/gaps.js';
import type { TriageScope } from '../engine/triage.js';
import { triageReporters } from '../report/triage/index.js';
import { triageEntry } from '../report/triage/group.js';
import { presentTriage } from '../report/triage/present.js';
import { parseSelector } from './selector.js';
import { watchPod, watchTriage } from './watch.js';
import { QueryError, type Query } from '../engine/target.js';
import { QuantityError } from '../engine/quantity/index.js';
import { ClusterError, InputError, UsageError } from '../errors.js';
import { describeError, describeNotFound } from '../messages/errors.js';
import { diagnosePod, triagePods } from '../index.js';
import { escapeTerminal } from '../report/escape.js';
import { reporters } from '../report/index.js';
import type { Writer } from '../report/writer.js';
import { dumpSource } from '../sources/dump/read.js';
import type { Source } from '../sources/source.js';
import type { Snapshot } from '../snapshot/types.js';
import { progressReporter } from './progress.js';
import { exitCodes } from './exit-codes.js';
import { diagnosisCoverage } from './coverage.js';
import { Timings, timingsWanted } from './timings.js';
import { launchHooks } from './hooks.js';
import { buildCaptureProgram, buildProgram, type CliOptions } from './options.js';
import { saveCapture, type ReadLog } from './capture.js';
import { toolVersion } from '../version.js';

function useColor(choice: CliOptions['color']): boolean {
  if (choice === 'always') return true;
  if (choice === 'never') return false;
  return Boolean(process.stdout.isTTY) && !process.env['NO_COLOR'] && process.env['TERM'] !== 'dumb';
}

/** Set by --watch: exit as soon as the answer is printed rather than when the sockets drain. */
let exitWhenDone = false;

async function run(argv: string[]): Promise<number> {
  // `kubectl why-pending capture ...`: the same selection and reads, written instead of reported.
  const capturing = argv[2] === 'capture';
  const program = capturing ? buildCaptureProgram(toolVersion) : buildProgram(toolVersion);
  program.configureOutput({ writeErr: () => undefined, writeOut: (s) => process.stdout.write(s) });
  try {
    program.parse(capturing ? [...argv.slice(0, 2), ...argv.slice(3)] : argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return exitCodes.ok;
      // Commander puts a suggestion on a line of its own; ours are one line.
      fail(`${error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')} (see kubectl why-pending${capturing ? ' capture' : ''} --help)`);
      return exitCodes.usage;
    }
    throw error;
  }
  const options = program.opts<CliOptions & { filename?: string }>();
  if (capturing) options.save = options.filename;
  const name = program.args[0];
  if (name !== undefined && (options.allNamespaces || options.selector !== undefined)) {
    throw new UsageError(`${options.allNamespaces ? '-A/--all-namespaces' : '-l/--selector'} picks pods without a name; give a pod name or ${options.allNamespaces ? '-A' : '-l'}, not both`);
  }
  if (options.allNamespaces && options.namespace !== undefined) throw new UsageError('-A/--all-namespaces and -n/--namespace together: give one');
  if (options.watch && options.fromDump) throw new UsageError('--watch reads a live cluster; a dump does not change');
  if (options.watch && options.output !== 'human') throw new UsageError('--watch prints lines as things change: use it without -o');
  if (options.save !== undefined && options.fromDump && !capturing) throw new UsageError('--save writes what a live read read; to redact a dump, use kubectl why-pending capture --from-dump DUMP -f PATH');
  if (options.save !== undefined && options.watch) throw new UsageError('--save and --watch together: save one diagnosis with --save, then watch');
  if (options.redactNames && options.save === undefined) throw new UsageError('--redact-names goes with --save (or kubectl why-pending capture)');
  if (options.save === '-' && !capturing) throw new UsageError('--save - would mix the capture with the report on standard output: give --save a path, or use kubectl why-pending capture -f -');
  const logs: ReadLog[] = [];
  const source = await sourceFor(options, program.opts(), logs);
  const save = options.save === undefined ? undefined : { path: options.save, redactNames: options.redactNames === true, logs, capturing };
  if (options.watch && source.watcher) {
    // A watch the server has not ended yet may hold a socket after the last line is printed.
    exitWhenDone = true;
    const watching = { ...source, watcher: source.watcher.bind(source) };
    if (name === undefined) return watchTriage(watching, triageScope(source, options), writerFor(options));
    return watchPod(watching, { namespace: source.namespace, name }, writerFor(options));
  }
  if (name === undefined) return runTriage(source, options, save);
  const { namespace } = source;
  const query = { namespace, name };
  const clock = timingsWanted() ? new Timings() : undefined;
  const first = await readWithProgress(source, query);
  clock?.lap('read');
  let snapshot = first;
  // Timed apart when asked: the node index (each node's pods and their requests summed) is
  // built once per read, the rest is this pod's diagnosis.
  if (clock) nodeIndex(snapshot);
  clock?.lap('node index');
  let outcome = diagnosePod(snapshot, query);
  clock?.lap('diagnosis');
  // A fix on a node the staged read skipped is confirmed once that node's pods are read: once.
  if (outcome.kind === 'diagnosis' && outcome.diagnosis.podsToConfirmFixes.length > 0 && source.readPodsOn) {
    const { pod, podsToConfirmFixes: nodes } = outcome.diagnosis;
    const target = first.objects.pods.find((p) => p.metadata?.name === pod.name && (p.metadata?.namespace ?? 'default') === pod.namespace);
    if (target) {
      snapshot = await withProgress((update) => source.readPodsOn?.(first, target, nodes, update) ?? Promise.resolve(first));
      clock?.lap('follow-up read');
      outcome = diagnosePod(snapshot, query);
      clock?.lap('second diagnosis');
    }
  }
  const saved = save ? await saveCapture({ path: save.path, redactNames: save.redactNames, selection: { namespace, name }, stdout: captureStdout }, capturedOf(snapshot, outcome), source, save.logs) : [];
  if (save) clock?.lap('capture');
  if (outcome.kind === 'notFound') {
    if (save?.capturing) sayCaptured(saved, save);
    fail(describeNotFound(outcome, snapshot.source.description));
    return exitCodes.notFound;
  }
  if (save?.capturing) {
    sayCaptured(saved, save);
    if (clock) process.stderr.write(`timings: ${clock.summary()}\n`);
    return exitCodes.ok;
  }
  reporters[options.output](outcome.diagnosis, writerFor(options));
  if (save) sayCaptured(saved, save);
  clock?.lap('report');
  if (clock) process.stderr.write(`timings: ${clock.summary()}\n`);
  launchHooks.covered(['pod', options.fromDump ? 'dump' : 'live', options.output, ...diagnosisCoverage(outcome.diagnosis)]);
  return exitCodes.ok;
}

/** No pod name: every pending pod of the scope, diagnosed on one snapshot and grouped by cause. */
function triageScope(source: Source, options: CliOptions): TriageScope {
  return {
    ...(options.allNamespaces ? {} : { namespace: source.namespace }),
    ...(options.selector !== undefined ? { selector: parseSelector(options.selector) } : {}),
  };
}

/**
 * What a capture of this run holds: the snapshot, and from a dump the gap the engine derives
 * for the diagnosed pod (a dump of no pod but it says nothing of the nodes' pods), which a
 * capture states rather than leaves to be guessed again.
 */
function capturedOf(snapshot: Snapshot, outcome: ReturnType<typeof diagnosePod>): Snapshot {
  if (snapshot.source.kind !== 'dump' || outcome.kind !== 'diagnosis') return snapshot;
  const { pod } = outcome.diagnosis;
  const target = snapshot.objects.pods.find((p) => p.metadata?.name === pod.name && (p.metadata?.namespace ?? 'default') === pod.namespace);
  return target ? withDerivedGaps(snapshot, target) : snapshot;
}

/** `capture -f -`: the .tar.gz goes to standard output (and what was written, to stderr). */
const captureStdout = { isTTY: Boolean(process.stdout.isTTY), write: (bytes: Buffer) => new Promise<void>((done) => process.stdout.write(bytes, () => done())) };

/**
 * What a capture wrote: `capture` says it on stdout in place of a report (on stderr when stdout
 * carries the capture itself, `-f -`); --save on stderr, after the report.
 */
function sayCaptured(lines: readonly string[], save: SaveRequest): void {
  if (lines.length === 0) return;
  (save.capturing && save.path !== '-' ? process.stdout : process.stderr).write(`${lines.map(escapeTerminal).join('\n')}\n`);
}

interface SaveRequest {
  path: string;
  redactNames: boolean;
  logs: ReadLog[];
  /** `capture`: the capture's lines go to stdout in place of the report. */
  capturing: boolean;
}

async function runTriage(source: Source, options: CliOptions, save: SaveRequest | undefined): Promise<number> {
  const scope = triageScope(source, options);
  const snapshot = await withProgress((update) => source.readTriage(scope, update));
  const selection = { ...(scope.namespace !== undefined ? { namespace: scope.namespace } : { allNamespaces: true }), ...(options.selector !== undefined ? { selector: options.selector } : {}) };
  const saved = save ? await saveCapture({ path: save.path, redactNames: save.redactNames, selection, stdout: captureStdout }, snapshot, source, save.logs) : [];
  if (save?.capturing) {
    sayCaptured(saved, save);
    return exitCodes.ok;
  }
  // What the run covered, for the code cache (codeCache.ts), taken as each pod is kept.
  const covered = new Set<string>();
  const triaged = triagePods(snapshot, scope, (found) => {
    for (const tag of diagnosisCoverage(found)) covered.add(tag);
    return triageEntry(found);
  });
  triageReporters[options.output](presentTriage({ scope, source: snapshot.source, ...triaged }), writerFor(options));
  if (save) sayCaptured(saved, save);
  launchHooks.covered(['triage', options.fromDump ? 'dump' : 'live', options.output, ...covered]);
  return exitCodes.ok;
}

function writerFor(options: CliOptions): Writer {
  return {
    write: (s) => void process.stdout.write(s),
    color: useColor(options.color),
    ...(process.stdout.isTTY ? { columns: process.stdout.columns } : {}),
  };
}

// A dump needs no kubeconfig; a live read uses the context's namespace unless -n says otherwise.
// `logs` gets each transport a live read makes (a capture's manifest says how each kind was read).
async function sourceFor(options: CliOptions, raw: Record<string, unknown>, logs: ReadLog[]): Promise<Source> {
  if (options.fromDump) return dumpSource(options.fromDump, process.stdin, options.namespace);
  // Loaded only for a live read: a dump needs none of the HTTP and kubeconfig machinery.
  const { liveOptionsFrom, loadConfig, liveSource } = await import('../sources/live/index.js');
  return liveSource(loadConfig(liveOptionsFrom(raw), process.env), { onTransport: (transport) => logs.push(transport) });
}

async function readWithProgress(source: Source, query: Query): Promise<Snapshot> {
  return withProgress((update) => source.read(query, update));
}

async function withProgress(read: (update: (line: string) => void) => Promise<Snapshot>): Promise<Snapshot> {
  const progress = progressReporter(process.stderr);
  try {
    return await read(progress.update);
  } finally {
    progress.stop();
  }
}

// Messages carry names from the query, the dump or the server: escaped like the report.
function fail(message: string): void {
  process.stderr.write(`error: ${escapeTerminal(message)}\n`);
}

function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError || error instanceof QueryError) return exitCodes.usage;
  if (error instanceof InputError || error instanceof QuantityError) return exitCodes.input;
  if (error instanceof ClusterError) return exitCodes.cluster;
  return exitCodes.internal;
}

// A reader that closes the pipe early (`| head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(exitCodes.ok);
});

run(process.argv)
  .then((code) => {
    process.exitCode = code;
    if (exitWhenDone) process.exit(code);
  })
  .catch((error: unknown) => {
    const code = exitCodeOf(error);
    const message = describeError(error);
    fail(code === exitCodes.internal ? `internal error: ${message} (please report it; set WHY_PENDING_DEBUG=1 for details)` : message);
    if (code === exitCodes.internal && process.env['WHY_PENDING_DEBUG']) process.stderr.write(`${((error as Error).stack ?? '').split('\n').map(escapeTerminal).join('\n')}\n`);
    process.exitCode = code;
  });
