// What the install tests need that the project does not ship: krew (built from its Go module,
// cached by version like the test control plane), a release built into a temporary folder, and
// a PATH that holds kubectl and a few shell tools but no Node.js.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheRoot } from '../../../scripts/release/cache.js';
import { repoRoot } from '../../cli/run.js';

const krewVersion = 'v0.4.3';

const made: string[] = [];

/** A new temporary directory, removed by removeTemporaries (a release build is ~1 GB). */
export function temporary(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `why-pending-${prefix}-`));
  made.push(dir);
  return dir;
}

export function removeTemporaries(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function go(): string {
  if (!spawnSync('go', ['version']).error) return 'go';
  if (existsSync('/usr/local/go/bin/go')) return '/usr/local/go/bin/go';
  throw new Error('go is required to build krew for the install tests');
}

/** The directory holding `krew` and `validate-krew-manifest`, built once per krew version. */
export function krewTools(): string {
  const dir = path.join(cacheRoot(), 'krew', krewVersion);
  if (existsSync(path.join(dir, 'krew')) && existsSync(path.join(dir, 'validate-krew-manifest'))) return dir;
  process.stderr.write(`building krew ${krewVersion} from the Go module proxy into ${dir}...\n`);
  execFileSync(go(), ['install', `sigs.k8s.io/krew/cmd/krew@${krewVersion}`, `sigs.k8s.io/krew/cmd/validate-krew-manifest@${krewVersion}`], {
    env: { ...process.env, GOBIN: dir, CGO_ENABLED: '0' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return dir;
}

/** `npm run release` for these platforms, into a fresh temporary folder; returns it. */
export function buildRelease(platforms?: string[]): string {
  const out = temporary('release');
  const args = [path.join(repoRoot, 'scripts', 'release', 'run.ts'), '--out', out, ...(platforms ?? []).flatMap((p) => ['--platform', p])];
  execFileSync(path.join(repoRoot, 'node_modules', '.bin', 'tsx'), args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
  return out;
}

function which(tool: string): string {
  const found = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
  if (!found) throw new Error(`${tool} not found on PATH`);
  return found;
}

/**
 * A directory with kubectl and the few tools the completion helper (a sh script) calls: put it
 * on PATH with the plugin's directory and nothing else, and no `node` can be found.
 */
export function toolsWithoutNode(): string {
  const dir = temporary('path');
  for (const tool of ['kubectl', 'dirname', 'readlink']) symlinkSync(which(tool), path.join(dir, tool));
  return dir;
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `file` with exactly this PATH (and HOME, so no kubeconfig of the machine is read). */
export function runWithPath(file: string, args: string[], pathDirs: string[], env: Record<string, string> = {}): Ran {
  const home = temporary('home');
  const result = spawnSync(file, args, { cwd: repoRoot, encoding: 'utf8', env: { PATH: pathDirs.join(path.delimiter), HOME: home, ...env }, timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
