// WHY_PENDING_TIMINGS=1: where a run's time and memory went, on stderr, for the benchmarks
// (bench:live reads the timings line of a run, bench:watch the memory line of each wake).
import { getHeapSpaceStatistics } from 'node:v8';
import { cpuMs } from './cpu.js';
import { launchHooks } from './hooks.js';

export function timingsWanted(): boolean {
  const value = process.env['WHY_PENDING_TIMINGS'];
  return value !== undefined && value !== '' && value !== '0';
}

// Each lap says its wall time and the main thread's CPU time: where the two differ the process
// waited (for the network, or for a core another process held), where they agree it worked.
export class Timings {
  private last = performance.now();
  private lastCpu = cpuMs();
  private readonly laps: string[] = [];

  lap(what: string): void {
    const now = performance.now();
    const cpu = cpuMs();
    this.laps.push(`${what} ${(now - this.last).toFixed(1)} ms (cpu ${(cpu - this.lastCpu).toFixed(1)} ms)`);
    this.last = now;
    this.lastCpu = cpu;
  }

  /** The laps; first, when run by the launcher, loading the bundle and how its code cache went. */
  summary(): string {
    const load = launchHooks.load;
    const loadLap = load ? [`load ${load.wallMs.toFixed(1)} ms (cpu ${load.cpuMs.toFixed(1)} ms), code cache ${load.cache}`] : [];
    return [...loadLap, ...this.laps].join(', ');
  }
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);

/**
 * Where the process's memory is, in MB: its resident size, V8's heap by space (committed, as
 * the kernel sees it) and what lives outside it, so that a long --watch's growth can be told
 * apart: objects kept (old space), compiled code (code space), or native memory (the rest).
 */
export function memoryLine(): string {
  const m = process.memoryUsage();
  const spaces = getHeapSpaceStatistics()
    .filter((s) => s.space_size > 0)
    .map((s) => `${s.space_name.replace(/_space$/, '').replaceAll('_', ' ')} ${mb(s.space_size)}`)
    .join(', ');
  return `memory: rss ${mb(m.rss)}, heap ${mb(m.heapTotal)} (${spaces}), heap used ${mb(m.heapUsed)}, external ${mb(m.external)}, array buffers ${mb(m.arrayBuffers)}`;
}
