// npm run bench: prints how long a diagnosis takes, and how much memory it needs, at scale.
// Numbers, not assertions: compare them across changes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { diagnose } from '../../src/engine/diagnose.js';
import { present } from '../../src/report/present.js';
import { ruleSet } from '../../src/messages/registry.js';
import { readDump } from '../../src/sources/dump/read.js';
import { emptyCollections, type Snapshot } from '../../src/snapshot/types.js';
import { writeJsonDump, writeYamlDump } from './dump-files.js';
import { startupBench } from './startup.js';
import { syntheticCluster } from './synthetic.js';
import { triageCluster } from './triage.js';
import { triage } from '../../src/engine/triage.js';
import { triageEntry } from '../../src/report/triage/group.js';
import { presentTriage } from '../../src/report/triage/present.js';

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

async function time<T>(label: string, fn: () => Promise<T> | T, runs = 3): Promise<T> {
  let result: T | undefined;
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    result = await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  console.log(`${label.padEnd(58)} median ${samples[Math.floor(runs / 2)]!.toFixed(0).padStart(6)} ms  (min ${samples[0]!.toFixed(0)}, max ${samples[runs - 1]!.toFixed(0)})  rss ${mb(process.memoryUsage().rss)}`);
  return result as T;
}

for (const [nodes, perNode] of [
  [100, 10],
  [1000, 10],
  [5000, 10],
] as const) {
  const cluster = syntheticCluster(nodes, perNode);
  const snapshot: Snapshot = { source: { kind: 'dump', description: 'synthetic' }, objects: { ...emptyCollections(), nodes: cluster.nodes, pods: cluster.pods }, gaps: [] };
  const outcome = await time(`diagnose: ${nodes} nodes, ${nodes * perNode} pods`, () => diagnose(ruleSet, snapshot, { namespace: 'shop', name: 'web-0' }));
  if (outcome.kind !== 'diagnosis') throw new Error('bench pod not found');
  const json = JSON.stringify(present(outcome.diagnosis), null, 2);
  console.log(`${`-o json size: ${nodes} nodes`.padEnd(58)} ${(json.length / 1e6).toFixed(1)} MB`);
  if (nodes === 5000) {
    const dir = mkdtempSync(path.join(tmpdir(), 'why-pending-bench-'));
    const file = path.join(dir, 'cluster.json');
    writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...cluster.nodes, ...cluster.pods] }));
    await time(`read JSON dump + diagnose: ${nodes} nodes, ${nodes * perNode} pods`, async () => {
      const dumped = await readDump(file, process.stdin);
      return diagnose(ruleSet, dumped, { namespace: 'shop', name: 'web-0' });
    });
    rmSync(dir, { recursive: true, force: true });
  }
}

// Triage (no pod name): 1,000 pending pods of five causes at 5,000 nodes and 50,000 bound pods,
// every one diagnosed on the same snapshot and grouped. Target: at most 20 s.
{
  const cluster = triageCluster(5000, 10, 1000);
  const snapshot: Snapshot = { source: { kind: 'dump', description: 'synthetic' }, objects: { ...emptyCollections(), nodes: cluster.nodes, pods: cluster.pods }, gaps: [] };
  const doc = await time('triage: 1000 pending pods, 5000 nodes, 50000 pods', () => presentTriage({ scope: { namespace: 'shop' }, source: snapshot.source, ...triage(ruleSet, snapshot, { namespace: 'shop' }, triageEntry) }), 1);
  console.log(`${'triage groups'.padEnd(58)} ${doc.groups.map((g) => `${g.count} ${g.cause.plugin ?? g.cause.stage}`).join(', ')}`);
}

// Dump reading: big dumps as `kubectl get nodes,pods -A -o yaml|json` writes them, each read by
// readDump in a child process of its own, so that the peak RSS is that read's alone. Kept heap
// is what the snapshot holds once read (it grows with the objects kept; the rest should not).
const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const child = path.join(import.meta.dirname, 'read-dump-child.ts');
const dumpDir = mkdtempSync(path.join(tmpdir(), 'why-pending-bench-dump-'));
try {
  for (const [format, size] of [
    ['yaml', 120e6],
    ['json', 250e6],
    ['json', 500e6],
    // Issue 33's target: a 1 GB JSON dump in at most 10 s and 600 MB.
    ['json', 1000e6],
  ] as const) {
    const file = path.join(dumpDir, `cluster.${format}`);
    const written = format === 'yaml' ? writeYamlDump(file, size) : writeJsonDump(file, size);
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', child, file], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 1 << 20 });
    if (run.status !== 0) throw new Error(`reading ${file} failed: ${run.stderr}`);
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { seconds: number; maxRssBytes: number; heapAfterBytes: number; nodes: number; pods: number };
    const label = `read ${format.toUpperCase()} dump: ${mb(written.bytes)}, ${result.nodes} nodes, ${result.pods} pods`;
    console.log(`${label.padEnd(58)} ${result.seconds.toFixed(1).padStart(6)} s  peak rss ${mb(result.maxRssBytes)}  kept heap ${mb(result.heapAfterBytes)}`);
    rmSync(file, { force: true });
  }
} finally {
  rmSync(dumpDir, { recursive: true, force: true });
}

// Start-up of the whole CLI, a process per run (startup.ts); the launcher needs `npm run build`.
startupBench();
