// Locates (building on first use) the control-plane binaries via test/controlplane/build.sh.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BINARIES = ['etcd', 'kube-apiserver', 'kube-scheduler', 'kube-controller-manager'] as const;
export type BinaryName = (typeof BINARIES)[number];
export type Binaries = Record<BinaryName, string> & { dir: string; version: string };

const buildScript = resolve(fileURLToPath(import.meta.url), '../../../controlplane/build.sh');

function fromDir(dir: string): Binaries {
  const missing = BINARIES.filter((b) => !existsSync(join(dir, b)));
  if (missing.length) throw new Error(`missing ${missing.join(', ')} in ${dir}`);
  const version = dir.replace(/\/+$/, '').split('/').pop() ?? 'unknown';
  return {
    dir,
    version,
    ...(Object.fromEntries(BINARIES.map((b) => [b, join(dir, b)])) as Record<BinaryName, string>),
  };
}

/**
 * WHY_PENDING_CP_BIN_DIR=<dir with the four binaries> skips the build entirely;
 * otherwise build.sh builds what is missing (progress on stderr) and prints the cache dir.
 */
export async function ensureBinaries(): Promise<Binaries> {
  const preset = process.env.WHY_PENDING_CP_BIN_DIR;
  if (preset) return fromDir(preset);
  const dir = await new Promise<string>((res, rej) => {
    const child = spawn('bash', [buildScript], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', rej);
    child.on('exit', (code) =>
      code === 0 ? res(out.trim().split('\n').pop() ?? '') : rej(new Error(`${buildScript} failed (exit ${String(code)})`)),
    );
  });
  return fromDir(dir);
}
