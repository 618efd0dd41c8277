// A child process timed from here and measured by /usr/bin/time (its peak RSS), started once
// the machine is near idle, so that no run pays for the one before: after a read of every pod the
// apiserver goes on collecting for seconds on the cores the next run needs. bench:live and
// bench:replay time every run this way.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuTimes } from './live/usage.js';

export interface Measured {
  wallSeconds: number;
  maxRssMB: number;
  stdout: string;
  stderr: string;
  code: number;
}

/** Waits until under a quarter of one core is busy over half a second, at most `settleMs`. */
async function quiet(settleMs: number): Promise<void> {
  const deadline = performance.now() + settleMs;
  while (performance.now() < deadline) {
    const before = cpuTimes();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = cpuTimes();
    if (!before || !after || after.total === before.total) return;
    const busyCores = (1 - (after.idle - before.idle) / (after.total - before.total)) * os.cpus().length;
    if (busyCores < 0.25) return;
  }
}

export interface MeasureOptions {
  /** Waits at most this long for the machine to be quiet. */
  settleMs: number;
  /** Exit codes taken as an answer (default 0). */
  okCodes?: readonly number[];
  /** false: stdout is dropped as it comes (a peer's large answer is not kept). */
  keepStdout?: boolean;
}

/** Runs `command` once the machine is quiet, under /usr/bin/time; wall time is timed here. */
export async function measure(command: string, argv: readonly string[], env: NodeJS.ProcessEnv, options: MeasureOptions): Promise<Measured> {
  const { settleMs, okCodes = [0], keepStdout = true } = options;
  await quiet(settleMs);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'why-pending-bench-time-'));
  const timeFile = path.join(dir, 'time');
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn('/usr/bin/time', ['-f', '%M', '-o', timeFile, command, ...argv], { stdio: ['ignore', 'pipe', 'pipe'], env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => {
      if (keepStdout) out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallSeconds = (performance.now() - start) / 1000;
      const rssKB = Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop());
      rmSync(dir, { recursive: true, force: true });
      const stderr = Buffer.concat(err).toString('utf8');
      if (!okCodes.includes(code ?? -1)) return reject(new Error(`${command} ${argv.join(' ')} exited ${String(code)}: ${stderr.slice(0, 2000)}`));
      resolve({ wallSeconds, maxRssMB: rssKB / 1024, stdout: Buffer.concat(out).toString('utf8'), stderr, code: code ?? -1 });
    });
  });
}

export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
