// The engine alone on the live benchmark's cluster, built in memory from the same seed
// (test/bench/live/seed.ts) and cut as the live reader cuts it: per case, how long diagnose()
// takes at N nodes. Run: npx tsx test/bench/live/engine.ts [--nodes 5000 --pods 50000]
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import type { ApiClient } from '../../e2e/harness/api.js';
import { diagnose } from '../../../src/engine/diagnose.js';
import { ruleSet } from '../../../src/plugins.js';
import { present } from '../../../src/report/present.js';
import { compactNeighbour, compactNode } from '../../../src/sources/live/compact.js';
import { emptyCollections, type Snapshot } from '../../../src/snapshot/types.js';
import { BENCH_NAMESPACE, benchCases } from './cases.js';
import { freeCpuMillis, seedNode, seedPod } from './seed.js';

const { values } = parseArgs({ options: { nodes: { type: 'string', default: '5000' }, pods: { type: 'string', default: '50000' }, runs: { type: 'string', default: '3' }, case: { type: 'string' } } });
const nodes = Number(values.nodes);
const pods = Number(values.pods);

/** An ApiClient that keeps what is posted and merges what is patched, as the apiserver would. */
function memoryApi(store: Map<string, Record<string, unknown>>): ApiClient {
  const merge = (into: Record<string, unknown>, patch: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete into[k];
      else if (typeof v === 'object' && !Array.isArray(v) && typeof into[k] === 'object' && into[k] !== null) merge(into[k] as Record<string, unknown>, v as Record<string, unknown>);
      else into[k] = v;
    }
  };
  const unsupported = () => Promise.reject(new Error('not in memory'));
  return {
    server: 'memory',
    get: unsupported,
    put: unsupported,
    delete: unsupported,
    raw: unsupported,
    post: (path, body) => {
      const o = body as { metadata: { name: string } };
      store.set(`${path}/${o.metadata.name}`, structuredClone(body) as Record<string, unknown>);
      return Promise.resolve({} as never);
    },
    patch: (path, body) => {
      const key = path.replace(/\/status$/, '').replace('/api/v1/nodes/', '/api/v1/nodes/');
      const o = store.get(key);
      if (o) merge(o, body as Record<string, unknown>);
      return Promise.resolve({} as never);
    },
  };
}

const store = new Map<string, Record<string, unknown>>();
const api = memoryApi(store);
for (let i = 0; i < nodes; i++) await seedNode(api, i, nodes);
for (let j = 0; j < pods; j++) await seedPod(api, j, nodes);
const nodeObjects = [...store.entries()].filter(([k]) => k.startsWith('/api/v1/nodes/')).map(([, v]) => compactNode(v as V1Node));
const podObjects = [...store.entries()].filter(([k]) => k.includes('/pods/')).map(([, v]) => compactNeighbour({ ...(v as V1Pod), status: { phase: 'Pending' } }));
for (const k of benchCases(freeCpuMillis(Math.floor(pods / nodes))).filter((c) => !values.case || values.case.includes(c.id))) {
  const target = structuredClone(k.pod) as V1Pod;
  target.metadata = { ...target.metadata, uid: `uid-${k.id}` };
  target.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: `0/${nodes} nodes are available.` }] };
  const samples: number[] = [];
  for (let r = 0; r < Number(values.runs); r++) {
    // Fresh objects each run, as each run of the tool reads them: nothing cached from the last.
    const snapshot: Snapshot = { source: { kind: 'live', description: 'memory' }, objects: { ...emptyCollections(), nodes: structuredClone(nodeObjects), pods: [...structuredClone(podObjects), target] }, gaps: [] };
    const t0 = performance.now();
    const out = diagnose(ruleSet, snapshot, { namespace: BENCH_NAMESPACE, name: (target.metadata?.name ?? '') });
    samples.push(performance.now() - t0);
    if (out.kind !== 'diagnosis') throw new Error('not found');
    if (r === 0) {
      const t1 = performance.now();
      const json = JSON.stringify(present(out.diagnosis), null, 2);
      console.log(`(${k.id}) ${JSON.stringify(out.diagnosis.counts.byFirstPlugin)} fixes ${out.diagnosis.fixes.length}; -o json ${(json.length / 1e6).toFixed(1)} MB in ${(performance.now() - t1).toFixed(0)} ms`);
    }
  }
  samples.sort((a, b) => a - b);
  console.log(`(${k.id}) diagnose median ${samples[Math.floor(samples.length / 2)]?.toFixed(0)} ms (min ${samples[0]?.toFixed(0)}, max ${samples[samples.length - 1]?.toFixed(0)})`);
}
