// A live cluster to record: the project's test control plane (test/e2e/harness) seeded as
// bench:live seeds it (test/bench/live/seed.ts: the same nodes, the same bound pods, the same
// pending pods of test/bench/live/cases.ts), each case pod left once the scheduler has said why
// it does not fit (its PodScheduled condition and its FailedScheduling event, which the tool's
// agreement check reads). A large recording is seeded as bench:live seeds a large run
// (live/memory.ts): GOGC=50, the controller manager stopped before the bulk seeding and the
// scheduler once the cases have their verdicts, so that 100,000 pods fit the machine.
import { performance } from 'node:perf_hooks';
import { waitForServiceAccount } from '../../e2e/harness/cluster.js';
import { BINARIES } from '../../e2e/harness/binaries.js';
import { startTestCluster } from '../../e2e/harness/index.js';
import { LARGE_RUN_PODS } from '../live/memory.js';
import { BENCH_NAMESPACE, benchCases, type BenchCase } from '../live/cases.js';
import { layout } from '../live/layout.js';
import { ensureNamespace, pool, seedNode, seedPod, TEAM_NAMESPACES } from '../live/seed.js';

export interface Seeded {
  kubeconfig: string;
  cases: BenchCase[];
  stop(): Promise<void>;
}

export async function startSeeded(nodes: number, pods: number, caseIds: string, width: number, say: (line: string) => void): Promise<Seeded> {
  const large = pods > LARGE_RUN_PODS;
  const c = await startTestCluster({ log: say, ...(large ? { env: Object.fromEntries(BINARIES.map((b) => [b, { GOGC: '50' }])) } : {}) });
  try {
    const t0 = performance.now();
    say(`seeding ${nodes} nodes and ${pods} pods, ${width} requests at once`);
    for (const ns of [...TEAM_NAMESPACES, BENCH_NAMESPACE]) await ensureNamespace(c.api, ns);
    for (const ns of [...TEAM_NAMESPACES, BENCH_NAMESPACE]) await waitForServiceAccount(c, ns);
    if (large) await c.stopComponent('kube-controller-manager');
    await pool(nodes, width, (i) => seedNode(c.api, i, nodes), (n) => say(`  ${n} nodes`));
    // bench:live's even spread: every node the same pods, so the same free cpu.
    const placed = layout(nodes, pods, 'even');
    await pool(pods, width, (j) => seedPod(c.api, j, placed.place(j)), (n) => say(`  ${n} pods`));
    say(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    const cases = benchCases(placed.maxFreeCpuMillis).filter((k) => caseIds.includes(k.id));
    for (const k of cases) await c.api.post(`/api/v1/namespaces/${BENCH_NAMESPACE}/pods`, k.pod);
    for (const k of cases) {
      const name = (k.pod['metadata'] as { name: string }).name;
      const { condition } = await c.waitForPodScheduled(BENCH_NAMESPACE, name, 300_000);
      if (condition.status !== 'False') throw new Error(`case (${k.id}) was scheduled: ${JSON.stringify(condition)}`);
      await c.waitForEvent(BENCH_NAMESPACE, name, 'FailedScheduling', 120_000);
      say(`case (${k.id}): ${condition.reason ?? ''}: ${(condition.message ?? '').slice(0, 160)}`);
    }
    if (large) await c.stopComponent('kube-scheduler');
    return { kubeconfig: c.kubeconfig, cases, stop: () => c.stop() };
  } catch (error) {
    await c.stop();
    throw error;
  }
}
