// Child processes of the harness: logs to files, killed on stop() and on process exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export interface Managed {
  name: string;
  child: ChildProcess;
  logFile: string;
  /** Resolves when the process has exited (never rejects). */
  exited: Promise<number | null>;
  exitCode: () => number | null | undefined;
}

const live = new Set<Managed>();
let hooked = false;

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  // Last resort: whatever is still running when Node exits gets SIGKILL.
  process.on('exit', () => {
    for (const m of live) m.child.kill('SIGKILL');
  });
}

export function startProcess(name: string, bin: string, args: string[], logFile: string, env: Record<string, string> = {}): Managed {
  hookExit();
  const fd = openSync(logFile, 'a');
  const child = spawn(bin, args, { stdio: ['ignore', fd, fd], env: { ...process.env, ...env } });
  closeSync(fd);
  let code: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (c, sig) => {
      code = c ?? (sig ? -1 : null);
      live.delete(m);
      resolve(code);
    });
    child.on('error', (err) => {
      code = -1;
      live.delete(m);
      resolve(-1);
      void err;
    });
  });
  const m: Managed = { name, child, logFile, exited, exitCode: () => code };
  live.add(m);
  return m;
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export async function stopProcess(m: Managed, graceMs = 5000): Promise<void> {
  if (m.exitCode() !== undefined) return;
  m.child.kill('SIGTERM');
  const timer = setTimeout(() => m.child.kill('SIGKILL'), graceMs);
  await m.exited;
  clearTimeout(timer);
}

function logTail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Throws, with the tail of its log, if `m` has exited. Call from readiness polls. */
export function assertRunning(m: Managed): void {
  const code = m.exitCode();
  if (code !== undefined) {
    throw new Error(`${m.name} exited (code ${String(code)}); log ${m.logFile}:\n${logTail(m.logFile)}`);
  }
}
