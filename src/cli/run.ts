// The only module that touches `process`: parses arguments, picks the source, runs the engine,
// picks the reporter, and turns every failure into one line and an exit code.
import { CommanderError } from 'commander';
import { diagnose } from '../engine/diagnose.js';
import { ruleSet } from '../plugins.js';
import { QueryError } from '../engine/target.js';
import { ClusterError, InputError, UsageError } from '../errors.js';
import { escapeTerminal } from '../report/escape.js';
import { reporters } from '../report/index.js';
import type { Writer } from '../report/writer.js';
import { readDump } from '../sources/dump/read.js';
import type { Snapshot } from '../snapshot/types.js';
import { progressReporter } from './progress.js';
import { exitCodes } from './exit-codes.js';
import { buildProgram, type CliOptions } from './options.js';

function useColor(choice: CliOptions['color']): boolean {
  if (choice === 'always') return true;
  if (choice === 'never') return false;
  return Boolean(process.stdout.isTTY) && !process.env['NO_COLOR'] && process.env['TERM'] !== 'dumb';
}

async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  program.configureOutput({ writeErr: () => undefined, writeOut: (s) => process.stdout.write(s) });
  try {
    program.parse(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return exitCodes.ok;
      // Commander puts a suggestion on a line of its own; ours are one line.
      fail(`${error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ')} (see kubectl why-pending --help)`);
      return exitCodes.usage;
    }
    throw error;
  }
  const options = program.opts<CliOptions>();
  const name = program.args[0] ?? '';
  const { snapshot, namespace } = await readSnapshot(options, program.opts(), name);
  const outcome = diagnose(ruleSet, snapshot, { namespace, name });
  if (outcome.kind === 'notFound') {
    const hint = outcome.suggestions.length > 0 ? `; did you mean ${outcome.suggestions.join(', ')}?` : '';
    fail(`${outcome.what} "${name}" not found in namespace "${namespace}" (${snapshot.source.description})${hint}`);
    return exitCodes.notFound;
  }
  const out: Writer = {
    write: (s) => void process.stdout.write(s),
    color: useColor(options.color),
    ...(process.stdout.isTTY ? { columns: process.stdout.columns } : {}),
  };
  reporters[options.output](outcome.diagnosis, out);
  return exitCodes.ok;
}

// A dump needs no kubeconfig; a live read uses the context's namespace unless -n says otherwise.
async function readSnapshot(options: CliOptions, raw: Record<string, unknown>, name: string): Promise<{ snapshot: Snapshot; namespace: string }> {
  if (options.fromDump) {
    const progress = progressReporter(process.stderr);
    progress.update(`reading dump ${options.fromDump === '-' ? 'stdin' : options.fromDump}`);
    try {
      const snapshot = await readDump(options.fromDump, process.stdin, { progress: progress.update });
      return { snapshot, namespace: options.namespace ?? 'default' };
    } finally {
      progress.stop();
    }
  }
  // Loaded only for a live read: a dump needs none of the HTTP and kubeconfig machinery.
  const { liveOptionsFrom, loadConfig, readLive } = await import('../sources/live/index.js');
  const config = loadConfig(liveOptionsFrom(raw), process.env);
  const progress = progressReporter(process.stderr);
  try {
    const snapshot = await readLive(config, { namespace: config.namespace, name }, progress.update);
    return { snapshot, namespace: config.namespace };
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
  if (error instanceof InputError) return exitCodes.input;
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
  })
  .catch((error: unknown) => {
    const code = exitCodeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    fail(code === exitCodes.internal ? `internal error: ${message} (please report it; set WHY_PENDING_DEBUG=1 for details)` : message);
    if (code === exitCodes.internal && process.env['WHY_PENDING_DEBUG']) process.stderr.write(`${((error as Error).stack ?? '').split('\n').map(escapeTerminal).join('\n')}\n`);
    process.exitCode = code;
  });
