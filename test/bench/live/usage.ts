// What the control plane's processes and the benchmark itself use, read from /proc (Linux): CPU
// seconds, to say which process bounds the seeder, and resident memory, to say what a bound pod
// costs the control plane at the size of the run.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ControlPlane } from '../../e2e/harness/index.js';
import { BINARIES, type BinaryName } from '../../e2e/harness/binaries.js';

export type Who = BinaryName | 'seeder';

export interface Usage {
  cpuSeconds: number;
  rssMB: number;
}

const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

function usageOf(pid: number): Usage | undefined {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const rssKB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return { cpuSeconds: (Number(fields[11]) + Number(fields[12])) / ticksPerSecond, rssMB: rssKB / 1024 };
  } catch {
    return undefined;
  }
}

/** Each running component's usage, and the benchmark's own (the seeder's requests are its work). */
export function usage(c: ControlPlane): Partial<Record<Who, Usage>> {
  const out: Partial<Record<Who, Usage>> = {};
  for (const name of BINARIES) {
    const pid = c.pid(name);
    const u = pid === undefined ? undefined : usageOf(pid);
    if (u) out[name] = u;
  }
  const own = process.cpuUsage();
  out.seeder = { cpuSeconds: (own.user + own.system) / 1e6, rssMB: process.memoryUsage.rss() / 2 ** 20 };
  return out;
}

/** CPU seconds each process spent between two readings. */
export function cpuBetween(before: Partial<Record<Who, Usage>>, after: Partial<Record<Who, Usage>>): Partial<Record<Who, number>> {
  const out: Partial<Record<Who, number>> = {};
  for (const [who, u] of Object.entries(after) as [Who, Usage][]) out[who] = u.cpuSeconds - (before[who]?.cpuSeconds ?? 0);
  return out;
}

/** The machine's CPU counters (jiffies): idle and all, from /proc/stat; undefined off Linux. */
export function cpuTimes(): { idle: number; total: number } | undefined {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

const share = (part: number, whole: number) => `${whole > 0 ? ((100 * part) / whole).toFixed(0) : '?'}%`;

/**
 * The seeder's own time and what bounded it: pods per second, and each process's share of the
 * CPU spent while the pods were written (the apiserver's, when it is the bound), beside how busy
 * the machine's cores were (other work on the machine included).
 */
export function seedingSummary(
  run: { nodes: number; pods: number; width: number },
  nodeSeconds: number,
  podSeconds: number,
  cpu: Partial<Record<Who, number>>,
  machine: [{ idle: number; total: number } | undefined, { idle: number; total: number } | undefined],
): { line: string; podsPerSecond: number; cpuSeconds: Partial<Record<Who, number>>; machineBusy?: number } {
  const total = Object.values(cpu).reduce((a, b) => a + b, 0);
  const names: [Who, string][] = [['kube-apiserver', 'kube-apiserver'], ['etcd', 'etcd'], ['kube-scheduler', 'kube-scheduler'], ['kube-controller-manager', 'kube-controller-manager'], ['seeder', 'the seeder']];
  const parts = names.filter(([who]) => cpu[who] !== undefined).map(([who, words]) => `${words} ${(cpu[who] ?? 0).toFixed(0)} s (${share(cpu[who] ?? 0, total)})`);
  const [m0, m1] = machine;
  const busy = m0 && m1 && m1.total > m0.total ? 1 - (m1.idle - m0.idle) / (m1.total - m0.total) : undefined;
  const podsPerSecond = run.pods / podSeconds;
  const line =
    `${run.nodes} nodes in ${nodeSeconds.toFixed(0)} s; ${run.pods} bound pods in ${podSeconds.toFixed(0)} s, ${podsPerSecond.toFixed(0)} pods/s (a create and a status write each, ${run.width} at once); ` +
    `CPU while the pods were written: ${parts.join(', ')}${busy !== undefined ? `; the machine's cores ${(busy * 100).toFixed(0)}% busy, other work included` : ''}`;
  return { line, podsPerSecond, cpuSeconds: cpu, ...(busy !== undefined ? { machineBusy: busy } : {}) };
}

/** Each control-plane process's resident memory, and the four together per bound pod. */
export function residentLine(u: Partial<Record<Who, Usage>>, pods: number): string {
  const parts = BINARIES.filter((b) => u[b]).map((b) => `${b} ${((u[b]?.rssMB ?? 0) / 1024).toFixed(2)} GB`);
  const sum = BINARIES.reduce((a, b) => a + (u[b]?.rssMB ?? 0), 0);
  return `${parts.join(', ')}; ${(sum / 1024).toFixed(1)} GB together, ${((sum * 1024) / pods).toFixed(0)} KB per bound pod`;
}
