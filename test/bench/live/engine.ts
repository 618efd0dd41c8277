// The engine alone on the live benchmark's cluster, built in memory from the same seed
// (test/bench/live/seed.ts) and cut as the live reader cuts it. Each run reads the cluster
// afresh (new objects, as each run of the tool does), builds the per-snapshot node index
// (nodeIndex: what every pod's diagnosis shares, as the scheduler's NodeInfo cache) and then
// diagnoses the cases one after another on that snapshot. Both are reported: the index build
// once per snapshot, and the diagnosis per pod, first in this process (code and text caches
// cold, as in the CLI, which diagnoses one pod) and in the later runs.
// Run: npx tsx test/bench/live/engine.ts [--nodes 5000 --pods 50000 --runs 5 --case ab]
// Times are wall clock and, in brackets, the CPU time of the main thread (less sensitive to
// other work on the machine).
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { diagnose } from '../../../src/engine/diagnose.js';
import { nodeIndex } from '../../../src/engine/facts.js';
import { ruleSet } from '../../../src/messages/registry.js';
import { present } from '../../../src/report/present.js';
import { compactNeighbour, compactNode } from '../../../src/sources/live/compact.js';
import { emptyCollections, type Snapshot } from '../../../src/snapshot/types.js';
import { BENCH_NAMESPACE, benchCases } from './cases.js';
import { layout } from './layout.js';
import { memoryApi } from './memory-api.js';
import { seedNode, seedPod } from './seed.js';

const { values } = parseArgs({ options: { nodes: { type: 'string', default: '5000' }, pods: { type: 'string', default: '50000' }, runs: { type: 'string', default: '5' }, case: { type: 'string' } } });
const nodes = Number(values.nodes);
const pods = Number(values.pods);

const store = new Map<string, Record<string, unknown>>();
const api = memoryApi(store);
for (let i = 0; i < nodes; i++) await seedNode(api, i, nodes);
const placed = layout(nodes, pods, 'even');
for (let j = 0; j < pods; j++) await seedPod(api, j, placed.place(j));
const nodeObjects = [...store.entries()].filter(([k]) => k.startsWith('/api/v1/nodes/')).map(([, v]) => compactNode(v as V1Node));
const podObjects = [...store.entries()].filter(([k]) => k.includes('/pods/')).map(([, v]) => compactNeighbour(v as V1Pod));
// The seeded objects whole are not what the tool holds (it keeps the records above): gone, so
// that the collector works on a heap the size of the CLI's, not ten times it.
store.clear();
const cases = benchCases(placed.maxFreeCpuMillis).filter((c) => !values.case || values.case.includes(c.id));
const targets = cases.map((k) => {
  const target = structuredClone(k.pod) as V1Pod;
  target.metadata = { ...target.metadata, uid: `uid-${k.id}` };
  target.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: `0/${nodes} nodes are available.` }] };
  return target;
});

interface Sample {
  wall: number;
  cpu: number;
}
function timed<T>(fn: () => T): { result: T; sample: Sample } {
  const c0 = process.threadCpuUsage();
  const t0 = performance.now();
  const result = fn();
  const wall = performance.now() - t0;
  const c1 = process.threadCpuUsage(c0);
  return { result, sample: { wall, cpu: (c1.user + c1.system) / 1000 } };
}
const ms = (s: Sample) => `${s.wall.toFixed(0)} ms [${s.cpu.toFixed(0)}]`;
function median(samples: Sample[]): string {
  if (samples.length === 0) return '-';
  const wall = samples.map((s) => s.wall).sort((a, b) => a - b);
  const cpu = samples.map((s) => s.cpu).sort((a, b) => a - b);
  const mid = Math.floor(samples.length / 2);
  return `${ms({ wall: wall[mid] ?? 0, cpu: cpu[mid] ?? 0 })} (min ${ms({ wall: wall[0] ?? 0, cpu: cpu[0] ?? 0 })}, max ${ms({ wall: wall[wall.length - 1] ?? 0, cpu: cpu[cpu.length - 1] ?? 0 })})`;
}

// The previous run's snapshot is garbage by now: collected before the next is timed, so that
// each run's numbers are its own work (the collector still runs on what a run allocates).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const runs = Number(values.runs);
const index: Sample[] = [];
const perCase = cases.map(() => [] as Sample[]);
for (let r = 0; r < runs; r++) {
  // Fresh objects each run, as each run of the tool reads them: nothing cached from the last.
  // The pods asked about first, where the live reader puts the pod it reads apart (reads/target.ts).
  const snapshot: Snapshot = { source: { kind: 'live', description: 'memory' }, objects: { ...emptyCollections(), nodes: structuredClone(nodeObjects), pods: [...targets, ...structuredClone(podObjects)] }, gaps: [] };
  collect();
  index.push(timed(() => nodeIndex(snapshot)).sample);
  for (const [i, k] of cases.entries()) {
    const { result: out, sample } = timed(() => diagnose(ruleSet, snapshot, { namespace: BENCH_NAMESPACE, name: targets[i]?.metadata?.name ?? '' }));
    perCase[i]?.push(sample);
    if (out.kind !== 'diagnosis') throw new Error('not found');
    if (r === 0) {
      const t1 = performance.now();
      const json = JSON.stringify(present(out.diagnosis), null, 2);
      console.log(`(${k.id}) ${JSON.stringify(out.diagnosis.counts.byFirstPlugin)} fixes ${out.diagnosis.fixes.length}; -o json ${(json.length / 1e6).toFixed(1)} MB in ${(performance.now() - t1).toFixed(0)} ms`);
    }
  }
}
console.log(`${nodes} nodes, ${pods} bound pods, ${runs} runs; wall ms [main-thread CPU ms]`);
console.log(`node index, once per snapshot: first ${ms(index[0] ?? { wall: 0, cpu: 0 })}; later median ${median(index.slice(1))}`);
for (const [i, k] of cases.entries()) {
  const samples = perCase[i] ?? [];
  console.log(`(${k.id}) diagnose: first ${ms(samples[0] ?? { wall: 0, cpu: 0 })}; later median ${median(samples.slice(1))}`);
}
