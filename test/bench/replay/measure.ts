// A child process timed from here and measured by /usr/bin/time (its peak RSS), started once
// the machine is near idle (as bench:live starts each of its runs), so that no run pays for the
// one before.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

export interface Measured {
  wallSeconds: number;
  maxRssMB: number;
  stdout: string;
  stderr: string;
  code: number;
}

function cpuTimes(): { idle: number; total: number } | undefined {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
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

/** Runs `command` once the machine is quiet (waiting at most `settleMs`), under /usr/bin/time. */
export async function measure(command: string, argv: readonly string[], env: NodeJS.ProcessEnv, settleMs: number, okCodes: readonly number[] = [0]): Promise<Measured> {
  await quiet(settleMs);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'why-pending-replay-time-'));
  const timeFile = path.join(dir, 'time');
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn('/usr/bin/time', ['-f', '%M', '-o', timeFile, command, ...argv], { stdio: ['ignore', 'pipe', 'pipe'], env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
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
