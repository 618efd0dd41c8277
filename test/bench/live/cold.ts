// The engine as the CLI runs it: a fresh process per pod, so V8 runs the engine's code cold.
// Each run is a new process that loads one case's reads (written by `npm run bench:live --
// --snapshots DIR`: what the CLI read first, and the follow-up read of the nodes a fix names),
// builds the node index, diagnoses, and diagnoses again on the follow-up read, as src/cli/run.ts
// does. Builds given with --build are run alternately (a before/after on the same reads, the
// same minutes of the machine); medians of wall clock and, in brackets, main-thread CPU.
// The engine is loaded as the CLI loads it: from the build's bundle, with the code cache of the
// CLI's earlier runs (bin/kubectl-why_pending -> src/cli/launch.ts; src/cli/codeCache.ts). Before
// each case one untimed run leaves the cache the CLI's run on those reads would have left, when
// the cache does not already cover them (that is, the CLI's first run on a machine); the timed
// runs only read it. --no-code-cache times each build a second time without it (the first run
// after an install, or WHY_PENDING_CODE_CACHE=off).
// The reads are kept as JSON: JSON.parse builds objects as the CLI's readers do, while objects
// rebuilt by v8.deserialize were measured 4 to 6 times slower to walk the first time.
// Before each timed lap the process collects its garbage (gc()): parsing a reads file of 14 to
// 56 MB leaves the young generation full of what the harness just made, and its collection (7
// to 10 ms, measured with --trace-gc) would land in the first lap that allocates. A diagnosis
// allocates 9 to 15 MB, within one 16 MB semi-space (the launcher's --max-semi-space-size:
// src/cli/node-flags.ts), so each lap times the engine's own work, not what came before it. The CLI's own laps, with
// whatever collection its read leaves, are bench:live's "engine in the CLI".
// bench:live runs this on its own reads (--json FILE: the first build's medians, by case, and
// with --no-code-cache the same without the cache).
// Run with plain node (it imports only Node's modules and the builds' JavaScript):
//   npm run build && node test/bench/live/cold.ts --snapshots DIR [--build dist --build OTHER/dist] [--runs 9] [--cases abc] [--no-code-cache] [--json FILE]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const { values } = parseArgs({
  options: {
    snapshots: { type: 'string' },
    build: { type: 'string', multiple: true },
    runs: { type: 'string', default: '9' },
    cases: { type: 'string' },
    child: { type: 'string' },
    train: { type: 'boolean', default: false },
    'no-code-cache': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const repo = path.resolve(import.meta.dirname, '..', '..', '..');

interface Lap {
  wall: number;
  cpu: number;
}

type Engine = { diagnose: (r: unknown, s: unknown, q: unknown) => unknown; nodeIndex: (s: unknown) => unknown; ruleSet: unknown; diagnosisCoverage?: (d: unknown) => string[] };

/**
 * The engine as the CLI loads it: from the build's bundle through the launcher's loader, with the
 * code cache of earlier runs (src/cli/codeCache.ts; WHY_PENDING_CODE_CACHE=off for none), or,
 * for a build before the bundle, its modules with Node's compile cache.
 */
async function loadEngine(build: string): Promise<{ engine: Engine; save: () => void; covered: (tags: string[]) => void; cache: string }> {
  const bundle = path.join(build, 'kubectl-why_pending.cjs');
  if (existsSync(bundle)) {
    const { codeCacheDir, loadBundle } = (await import(path.join(build, 'cli', 'codeCache.js'))) as {
      codeCacheDir: (env: NodeJS.ProcessEnv) => string | undefined;
      loadBundle: (file: string, dir: string | undefined) => { exports: { engine: () => Promise<Engine> }; save: () => void; hooks: { covered: (tags: string[]) => void }; cache: string };
    };
    const loaded = loadBundle(bundle, codeCacheDir(process.env));
    return { engine: await loaded.exports.engine(), save: loaded.save, covered: loaded.hooks.covered, cache: loaded.cache };
  }
  module.enableCompileCache();
  const { nodeIndex } = (await import(path.join(build, 'engine', 'facts.js'))) as Engine;
  const { diagnose } = (await import(path.join(build, 'engine', 'diagnose.js'))) as Engine;
  const { ruleSet } = (await import(path.join(build, 'plugins.js'))) as Engine;
  return { engine: { diagnose, nodeIndex, ruleSet }, save: () => undefined, covered: () => undefined, cache: 'modules' };
}

/**
 * One run, in this process: prints its laps as JSON. A training run (--train) is the CLI's first
 * run on a machine: it diagnoses untimed and leaves the code cache the CLI would leave (tagged as
 * a live read of one pod); a timed run never writes the cache.
 */
async function child(file: string, build: string, train: boolean): Promise<void> {
  const { engine, save, covered, cache } = await loadEngine(build);
  const { query, first, second } = JSON.parse(readFileSync(file, 'utf8')) as { query: unknown; first: unknown; second?: unknown };
  const laps: Record<string, Lap> = {};
  // gc() for the collection above, enabled only now and only in a timed run: a flag given on the
  // command line would change V8's flag hash, and V8 would refuse the CLI's code cache (and one
  // set before the cache is written would make a cache the CLI refuses).
  if (!train) setFlagsFromString('--expose-gc');
  const collect = train ? undefined : (runInNewContext('gc') as () => void);
  const outcomes: unknown[] = [];
  const timed = (name: string, fn: () => unknown) => {
    collect?.();
    const cpu = process.threadCpuUsage();
    const start = performance.now();
    outcomes.push(fn());
    const used = process.threadCpuUsage(cpu);
    laps[name] = { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
  };
  timed('node index', () => engine.nodeIndex(first));
  timed('diagnosis', () => engine.diagnose(engine.ruleSet, first, query));
  if (second) timed('second diagnosis', () => engine.diagnose(engine.ruleSet, second, query));
  if (train) {
    // The tags the CLI gives for a live read of one pod (src/cli/run.ts), without the output.
    const diagnoses = outcomes.slice(1).map((o) => (o as { diagnosis?: unknown }).diagnosis).filter((d) => d !== undefined);
    covered(['pod', 'live', ...diagnoses.flatMap((d) => engine.diagnosisCoverage?.(d) ?? [])]);
    save();
  }
  process.stdout.write(JSON.stringify({ cache, laps }));
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

interface Variant {
  build: string;
  label: string;
  env: NodeJS.ProcessEnv;
  /** node's flags as the build's launcher gives them. */
  flags: readonly string[];
}

/**
 * The flags the build's launcher starts node with (src/cli/node-flags.ts; the code cache's name
 * and V8's check hold them), or, for a build from before that list, the one flag it gave then.
 */
async function launcherFlags(build: string): Promise<readonly string[]> {
  const file = path.join(build, 'cli', 'node-flags.js');
  if (!existsSync(file)) return ['--max-semi-space-size=16'];
  return ((await import(pathToFileURL(file).href)) as { nodeFlags: readonly string[] }).nodeFlags;
}

/** One process of `variant` on `file`: its laps, and how its code cache went. */
function spawnChild(variant: Variant, file: string, train: boolean): { cache: string; laps: Record<string, Lap> } {
  const args = [...variant.flags, import.meta.filename, '--child', file, '--build', variant.build, ...(train ? ['--train'] : [])];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', env: variant.env });
  if (run.status !== 0) throw new Error(`${path.basename(file)} with ${variant.label}: ${run.stderr.slice(0, 1000)}`);
  return JSON.parse(run.stdout) as { cache: string; laps: Record<string, Lap> };
}

async function parent(dir: string): Promise<void> {
  const builds = (values.build ?? ['dist']).map((b) => path.resolve(repo, b));
  const runs = Number(values.runs);
  const files = readdirSync(dir)
    .filter((f) => /^case-[a-z]\.json$/.test(f) && (!values.cases || values.cases.includes(f.charAt(5))))
    .sort();
  if (files.length === 0 || !(runs > 0)) throw new Error(`usage: node test/bench/live/cold.ts --snapshots DIR (with case-*.json from bench:live --snapshots) [--build DIR ...] [--runs N] [--cases abc] [--no-code-cache]`);
  const named = (build: string) => path.relative(repo, build) || build;
  const withCache: Variant[] = await Promise.all(builds.map(async (build) => ({ build, label: named(build), env: process.env, flags: await launcherFlags(build) })));
  const variants = [...withCache];
  if (values['no-code-cache']) variants.push(...withCache.map((v) => ({ ...v, label: `${v.label} without code cache`, env: { ...process.env, WHY_PENDING_CODE_CACHE: 'off' } })));
  console.log(`a fresh process per run, ${runs} runs per variant, alternated; median wall ms [main-thread CPU ms]`);
  const byVariant = variants.map((): Record<string, Record<string, Lap>> => ({}));
  for (const file of files) {
    const reads = path.join(dir, file);
    // The CLI's first run on these reads: it writes the cache if the cache does not cover them.
    for (const variant of variants.slice(0, builds.length)) spawnChild(variant, reads, true);
    const got = variants.map(() => new Map<string, Lap[]>());
    const caches = variants.map(() => new Set<string>());
    for (let r = 0; r < runs; r++) {
      for (const [i, variant] of variants.entries()) {
        const { cache, laps } = spawnChild(variant, reads, false);
        caches[i]?.add(cache);
        for (const [lap, value] of Object.entries(laps)) got[i]?.set(lap, [...(got[i]?.get(lap) ?? []), value]);
      }
    }
    for (const [i, variant] of variants.entries()) {
      const laps = [...(got[i]?.entries() ?? [])].map(([lap, xs]) => `${lap} ${median(xs.map((x) => x.wall)).toFixed(0)} [${median(xs.map((x) => x.cpu)).toFixed(0)}]`);
      console.log(`(${file.charAt(5)}) ${variant.label}: ${laps.join(', ')} (code cache ${[...(caches[i] ?? [])].join(', ')})`);
      const record = byVariant[i];
      if (record) record[file.charAt(5)] = Object.fromEntries([...(got[i]?.entries() ?? [])].map(([lap, xs]) => [lap, { wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu)) }]));
    }
  }
  const withoutCache = values['no-code-cache'] ? { withoutCodeCache: byVariant[builds.length] } : {};
  if (values.json) writeFileSync(values.json, `${JSON.stringify({ runs, cases: byVariant[0], ...withoutCache }, null, 2)}\n`);
}

if (values.child) await child(values.child, values.build?.[0] ?? path.join(repo, 'dist'), values.train);
else await parent(path.resolve(values.snapshots ?? ''));
