// What each side of a comparison says of its own process (measure.ts reads it from the child's
// last line, written by report()): its start, its CPU time since then, and its peak RSS. Imported first by every
// *-child.ts, so that the start is taken before the side's code is loaded.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** When the child started its work (performance.now()), loading included. */
const start = performance.now();
const cpuAtStart = process.cpuUsage();

/** CPU time of this process (every thread) since the start, in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage(cpuAtStart);
  return (user + system) / 1000;
}

/**
 * This process's peak RSS: VmHWM, the high-water mark of its own memory. getrusage's maxRSS would
 * not do: a child forked from a large parent starts with the parent's.
 */
function peakRss(): number {
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return kb ? Number(kb) * 1024 : process.resourceUsage().maxRSS * 1024;
}

/**
 * The child's last line, which measure.ts reads: its loading (start to `loaded`), its work
 * (`loaded` to `done`), CPU and peak RSS, and what the side read (`read`: counts, names).
 */
export function report(loaded: number, done: number, read: Record<string, unknown>): void {
  console.log(JSON.stringify({ loadMs: loaded - start, workMs: done - loaded, cpuMs: cpuMs(), maxRssBytes: peakRss(), ...read }));
}

/**
 * A side's run: `load` brings in its code and input and returns its work; the work is timed
 * apart from the loading, and `read` says what it read, for the comparison to check.
 */
export async function runSide<T>(load: () => Promise<() => Promise<T>>, read: (result: T) => Record<string, unknown>): Promise<void> {
  const work = await load();
  const loaded = performance.now();
  const result = await work();
  const done = performance.now();
  report(loaded, done, read(result));
}
