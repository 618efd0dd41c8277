// The engine as the CLI runs it: a fresh process per pod, so V8 runs the engine's code cold.
// Each run is a new process that loads one case's reads (written by `npm run bench:live --
// --snapshots DIR`: what the CLI read first, and the follow-up read of the nodes a fix names),
// builds the node index, diagnoses, and diagnoses again on the follow-up read, as src/cli/run.ts
// does. Builds given with --build are run alternately (a before/after on the same reads, the
// same minutes of the machine); medians of wall clock and, in brackets, main-thread CPU.
// The reads are kept as JSON: JSON.parse builds objects as the CLI's readers do, while objects
// rebuilt by v8.deserialize were measured 4 to 6 times slower to walk the first time.
// Before each timed lap the process collects its garbage (gc(), --expose-gc): parsing a reads
// file of 14 to 56 MB leaves the young generation full of what the harness just made, and its
// collection (7 to 10 ms, measured with --trace-gc) would land in the first lap that allocates.
// A diagnosis allocates 9 to 15 MB, within one 16 MB semi-space (the launcher's
// --max-semi-space-size), so each lap times the engine's own work, not what came before it.
// The CLI's own laps, with whatever collection its read leaves, are bench:live's "engine in
// the CLI".
// bench:live runs this on its own reads (--json FILE: the first build's medians, by case).
// Run with plain node (it imports only Node's modules and the builds' JavaScript):
//   npm run build && node test/bench/live/cold.ts --snapshots DIR [--build dist --build OTHER/dist] [--runs 9] [--cases abc] [--json FILE]
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    snapshots: { type: 'string' },
    build: { type: 'string', multiple: true },
    runs: { type: 'string', default: '9' },
    cases: { type: 'string' },
    child: { type: 'string' },
    json: { type: 'string' },
  },
});
const repo = path.resolve(import.meta.dirname, '..', '..', '..');

interface Lap {
  wall: number;
  cpu: number;
}

/** One run, in this process: prints its laps as JSON. */
async function child(file: string, build: string): Promise<void> {
  // As the CLI does (src/cli/main.ts): bytecode from the cache, not compiled again.
  module.enableCompileCache();
  const { query, first, second } = JSON.parse(readFileSync(file, 'utf8')) as { query: unknown; first: unknown; second?: unknown };
  const { nodeIndex } = (await import(path.join(build, 'engine', 'facts.js'))) as { nodeIndex: (s: unknown) => unknown };
  const { diagnose } = (await import(path.join(build, 'engine', 'diagnose.js'))) as { diagnose: (r: unknown, s: unknown, q: unknown) => unknown };
  const { ruleSet } = (await import(path.join(build, 'plugins.js'))) as { ruleSet: unknown };
  const laps: Record<string, Lap> = {};
  const collect = (globalThis as { gc?: () => void }).gc;
  const timed = (name: string, fn: () => unknown) => {
    collect?.();
    const cpu = process.threadCpuUsage();
    const start = performance.now();
    fn();
    const used = process.threadCpuUsage(cpu);
    laps[name] = { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
  };
  timed('node index', () => nodeIndex(first));
  timed('diagnosis', () => diagnose(ruleSet, first, query));
  if (second) timed('second diagnosis', () => diagnose(ruleSet, second, query));
  process.stdout.write(JSON.stringify(laps));
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

function parent(dir: string): void {
  const builds = (values.build ?? ['dist']).map((b) => path.resolve(repo, b));
  const runs = Number(values.runs);
  const files = readdirSync(dir)
    .filter((f) => /^case-[a-z]\.json$/.test(f) && (!values.cases || values.cases.includes(f.charAt(5))))
    .sort();
  if (files.length === 0 || !(runs > 0)) throw new Error(`usage: node test/bench/live/cold.ts --snapshots DIR (with case-*.json from bench:live --snapshots) [--build DIR ...] [--runs N] [--cases abc]`);
  console.log(`a fresh process per run, ${runs} runs per build, alternated; median wall ms [main-thread CPU ms]`);
  const firstBuild: Record<string, Record<string, Lap>> = {};
  for (const file of files) {
    const got = builds.map(() => new Map<string, Lap[]>());
    for (let r = 0; r < runs; r++) {
      for (const [i, build] of builds.entries()) {
        // The launcher's flags (bin/kubectl-why_pending), and gc() for the collection above.
        const run = spawnSync(process.execPath, ['--max-semi-space-size=16', '--expose-gc', import.meta.filename, '--child', path.join(dir, file), '--build', build], { encoding: 'utf8' });
        if (run.status !== 0) throw new Error(`${file} with ${build}: ${run.stderr.slice(0, 1000)}`);
        for (const [lap, value] of Object.entries(JSON.parse(run.stdout) as Record<string, Lap>)) got[i]?.set(lap, [...(got[i]?.get(lap) ?? []), value]);
      }
    }
    for (const [i, build] of builds.entries()) {
      const laps = [...(got[i]?.entries() ?? [])].map(([lap, xs]) => `${lap} ${median(xs.map((x) => x.wall)).toFixed(0)} [${median(xs.map((x) => x.cpu)).toFixed(0)}]`);
      console.log(`(${file.charAt(5)}) ${path.relative(repo, build) || build}: ${laps.join(', ')}`);
    }
    firstBuild[file.charAt(5)] = Object.fromEntries([...(got[0]?.entries() ?? [])].map(([lap, xs]) => [lap, { wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu)) }]));
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ runs, cases: firstBuild }, null, 2)}\n`);
}

if (values.child) await child(values.child, values.build?.[0] ?? path.join(repo, 'dist'));
else parent(path.resolve(values.snapshots ?? ''));
