// Runs the built CLI as a user would, and captures what it prints.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '..', '..');
export const cliMain = path.join(repoRoot, 'dist', 'cli', 'main.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { input?: string; env?: Record<string, string> } = {}): Run {
  const result = spawnSync(process.execPath, [cliMain, ...args], {
    input: options.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '', ...options.env },
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
