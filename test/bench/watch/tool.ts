// The watching tool as a child: `bin/kubectl-why_pending <pod> -n <ns> --watch` (the launcher
// execs node, so the child's pid is the process whose memory counts), each stdout line with
// the time it arrived here, and its VmRSS / VmHWM from /proc/<pid>/status every few seconds.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Line {
  /** Date.now() when the line arrived. */
  at: number;
  text: string;
}

export interface MemorySample {
  at: number;
  rssKB: number;
  /** The peak RSS so far (the kernel's high-water mark). */
  hwmKB: number;
}

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface WatchingTool {
  pid: number;
  lines: Line[];
  /** Its own account of its memory at each wake (WHY_PENDING_TIMINGS=1, src/cli/timings.ts), in MB by part. */
  accounts: { at: number; mb: Record<string, number> }[];
  memory: MemorySample[];
  /** Its stderr but the memory lines. */
  stderr(): string;
  ended: Promise<Ended>;
  running(): boolean;
  /** The first line from index `from` on that matches, or undefined after `timeoutMs`. */
  waitForLine(from: number, match: (l: Line) => boolean, timeoutMs: number): Promise<Line | undefined>;
  /** Takes one memory sample now (also taken every `sampleMs`). */
  sample(): MemorySample | undefined;
  signal(sig: NodeJS.Signals): void;
}

function statusKB(pid: number): { rssKB: number; hwmKB: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
    return { rssKB: field('VmRSS'), hwmKB: field('VmHWM') };
  } catch {
    return undefined; // exited
  }
}

/** "memory: rss 93.1, heap 40.0 (new 16.0, old 20.1, ...), ..." as { rss: 93.1, heap: 40, new: 16, old: 20.1, ... }. */
function memoryAccount(line: string): Record<string, number> {
  return Object.fromEntries([...line.slice('memory: '.length).matchAll(/([a-z][a-z ]*?) ([0-9.]+)/g)].map((m) => [m[1] ?? '', Number(m[2])]));
}

export function startWatching(launcher: string, args: string[], env: NodeJS.ProcessEnv, sampleMs: number): WatchingTool {
  const child = spawn(launcher, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  if (child.pid === undefined) throw new Error(`${launcher} did not start`);
  const pid = child.pid;
  const lines: Line[] = [];
  const memory: MemorySample[] = [];
  const accounts: WatchingTool['accounts'] = [];
  let pending = '';
  let pendingErr = '';
  let err = '';
  let exited = false;
  child.stdout.on('data', (chunk: Buffer) => {
    const at = Date.now();
    pending += chunk.toString('utf8');
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const text of parts) lines.push({ at, text });
  });
  child.stderr.on('data', (chunk: Buffer) => {
    const at = Date.now();
    pendingErr += chunk.toString('utf8');
    const parts = pendingErr.split('\n');
    pendingErr = parts.pop() ?? '';
    for (const text of parts) {
      if (text.startsWith('memory: ')) accounts.push({ at, mb: memoryAccount(text) });
      else err += `${text}\n`;
    }
  });
  const sample = (): MemorySample | undefined => {
    const kb = exited ? undefined : statusKB(pid);
    if (!kb) return undefined;
    const s = { at: Date.now(), ...kb };
    memory.push(s);
    return s;
  };
  const timer = setInterval(sample, sampleMs);
  const ended = new Promise<Ended>((resolve) =>
    child.on('close', (code, signal) => {
      exited = true;
      clearInterval(timer);
      resolve({ code, signal });
    }),
  );
  child.on('exit', () => (exited = true));
  return {
    pid,
    lines,
    memory,
    accounts,
    stderr: () => err + pendingErr,
    ended,
    running: () => !exited,
    sample,
    signal: (sig) => child.kill(sig),
    async waitForLine(from, match, timeoutMs) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.slice(from).find(match);
        if (found || Date.now() > until || exited) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
