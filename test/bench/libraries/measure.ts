// Each side of a comparison runs in a child process of its own, started with the CLI's node
// flags (src/cli/node-flags.ts), so that its peak RSS (the child's VmHWM) is its own work's
// alone; the sides take turns, run after run, so that a slow minute of the machine falls on
// both. A child prints one line of JSON last: how long loading its code took (modules, a
// schema), how long the work took, its CPU time (all its threads: on a machine busy with other
// work it says what the wall time cannot), its peak RSS, and what it read (counts, a digest of
// names) for the caller to compare.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { nodeFlags } from '../../../src/cli/node-flags.js';
import { median } from '../timed.js';

export interface ChildResult {
  loadMs: number;
  workMs: number;
  cpuMs: number;
  maxRssBytes: number;
  [check: string]: unknown;
}

export interface Side {
  label: string;
  /** A file of test/bench/libraries/, run with plain node (type stripping, no loader). */
  script: string;
  args: readonly string[];
}

export interface Measured {
  label: string;
  /** Medians over the runs. */
  loadMs: number;
  workMs: number;
  totalMs: number;
  cpuMs: number;
  rssBytes: number;
  runs: ChildResult[];
}

function runChild(side: Side): ChildResult {
  const script = path.join(import.meta.dirname, side.script);
  const run = spawnSync(process.execPath, [...nodeFlags, script, ...side.args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (run.status !== 0) throw new Error(`${side.label}: ${side.script} exited with ${run.status ?? run.signal}: ${run.stderr.trim().split('\n').slice(-15).join('\n')}`);
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as ChildResult;
}

/** Every side `runs` times, in turns; medians of each. */
export function measure(sides: readonly Side[], runs: number, say: (line: string) => void): Measured[] {
  const results = sides.map(() => [] as ChildResult[]);
  for (let r = 0; r < runs; r++) {
    for (const [i, side] of sides.entries()) {
      const result = runChild(side);
      results[i]?.push(result);
      say(`  ${side.label}, run ${r + 1}: ${(result.loadMs + result.workMs).toFixed(0)} ms (load ${result.loadMs.toFixed(0)}, cpu ${result.cpuMs.toFixed(0)}), ${(result.maxRssBytes / 2 ** 20).toFixed(0)} MB`);
    }
  }
  return sides.map((side, i) => {
    const own = results[i] ?? [];
    return {
      label: side.label,
      loadMs: median(own.map((r) => r.loadMs)),
      workMs: median(own.map((r) => r.workMs)),
      cpuMs: median(own.map((r) => r.cpuMs)),
      totalMs: median(own.map((r) => r.loadMs + r.workMs)),
      rssBytes: median(own.map((r) => r.maxRssBytes)),
      runs: own,
    };
  });
}

/** The same value of `key` in every run of every side (an item count, a digest of names), or an error. */
export function agree(measured: readonly Measured[], key: string): unknown {
  const values = measured.flatMap((m) => m.runs.map((r) => JSON.stringify(r[key])));
  const first = values[0];
  if (first === undefined || values.some((v) => v !== first)) {
    throw new Error(`the sides disagree on ${key}: ${measured.map((m) => `${m.label}: ${[...new Set(m.runs.map((r) => JSON.stringify(r[key])))].join(' / ')}`).join('; ')}`);
  }
  return JSON.parse(first) as unknown;
}
