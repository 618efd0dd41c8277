// Start-up: the whole CLI on the bundled example, a process per run, as kubectl runs the
// plugin. The launcher (bin/kubectl-why_pending: the bundle with V8's code cache of earlier
// runs, src/cli/codeCache.ts), the same without the cache (a machine's first run), and the CLI
// as modules (dist/cli/main.js, Node's compile cache only). Medians of wall time, alternated.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { nodeFlags } from '../../src/cli/node-flags.js';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const pinnedNode = path.join(repoRoot, 'node_modules', 'node', 'bin', 'node');

interface Way {
  label: string;
  command: string[];
  env: NodeJS.ProcessEnv;
}

function wallMs(way: Way, args: string[]): number {
  const start = performance.now();
  const run = spawnSync(way.command[0] ?? '', [...way.command.slice(1), ...args], { cwd: repoRoot, env: way.env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${way.label} ${args.join(' ')}: exit ${run.status}: ${run.stderr.slice(0, 500)}`);
  return performance.now() - start;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export function startupBench(runs = 9): void {
  const cache = mkdtempSync(path.join(tmpdir(), 'why-pending-bench-code-cache-'));
  try {
    const ways: Way[] = [
      { label: 'launcher, code cache of earlier runs', command: [path.join(repoRoot, 'bin', 'kubectl-why_pending')], env: { ...process.env, WHY_PENDING_CODE_CACHE: cache } },
      { label: 'launcher, no code cache (first run)', command: [path.join(repoRoot, 'bin', 'kubectl-why_pending')], env: { ...process.env, WHY_PENDING_CODE_CACHE: 'off' } },
      { label: 'modules (dist/cli/main.js)', command: [pinnedNode, ...nodeFlags, path.join(repoRoot, 'dist', 'cli', 'main.js')], env: process.env },
    ];
    const commands: [string, string[]][] = [
      ['start-up: the example dump, -o json', ['web-0', '-n', 'shop', '--from-dump', 'examples/gpu-taint-typo.yaml', '-o', 'json']],
      ['start-up: the example dump, human report', ['web-0', '-n', 'shop', '--from-dump', 'examples/gpu-taint-typo.yaml']],
      ['start-up: --version', ['--version']],
    ];
    // The cache as the first run of each command leaves it.
    for (const [, args] of commands) wallMs(ways[0] as Way, args);
    for (const [label, args] of commands) {
      const samples = ways.map((): number[] => []);
      for (let r = 0; r < runs; r++) for (const [i, way] of ways.entries()) samples[i]?.push(wallMs(way, args));
      for (const [i, way] of ways.entries()) console.log(`${`${label}: ${way.label}`.padEnd(90)} median ${median(samples[i] ?? []).toFixed(0).padStart(5)} ms  (min ${Math.min(...(samples[i] ?? [])).toFixed(0)}, max ${Math.max(...(samples[i] ?? [])).toFixed(0)})`);
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}
