// Captures real scheduler verdicts for a scenario:
//
//   npx tsx test/e2e/harness/capture.ts <scenario.yaml> <outdir>
//
// Scenario file:
//   nodes:   [{ name, labels?, taints?, allocatable?, capacity?, unschedulable? }]
//   objects: [ any manifests; Pods without spec.nodeName are the ones evaluated ]
//   later:   [ manifests created once the scheduler has decided about the pods of objects ]
//
// Writes <outdir>/dump/ (one kubectl get <kind> -A -o yaml file per kind) and <outdir>/per-node.json:
// for each unschedulable pod and each node, the PodScheduled message of a copy of the
// pod pinned to that node alone by a required node affinity matchFields metadata.name In [node].
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PodCondition, PodLike } from './cluster.js';
import { startTestCluster, type TestCluster } from './index.js';
import { BYSTANDER, pinningHidesSpread, writeDumpDir, probeNodes, probeNodesByCordon, verdictOf as verdict, type Verdict } from './probe.js';
import { applyScenario, readCaptureScenario, unboundPods } from './scenario.js';
import { sleep } from './wait.js';

interface PodReport {
  namespace: string;
  name: string;
  podScheduled: Verdict;
  nodes: Record<string, Verdict>;
  pin?: 'affinity' | 'cordon';
}

const key = (ns: string, name: string) => `${ns}/${name}`;

/** Every pod not bound to a node, waited on until the scheduler has decided. */
async function settlePending(c: TestCluster, explicit: [string, string][]): Promise<Map<string, { pod: PodLike; condition: PodCondition }>> {
  const out = new Map<string, { pod: PodLike; condition: PodCondition }>();
  for (const [ns, name] of explicit) out.set(key(ns, name), await c.waitForPodScheduled(ns, name));
  // Pods made by controllers (Deployments, Jobs, ...) appear a little later.
  await sleep(2000);
  const list = await c.api.get<{ items: PodLike[] }>(`/api/v1/pods?fieldSelector=${encodeURIComponent('spec.nodeName=')}`);
  for (const p of list.items) {
    const ns = p.metadata?.namespace ?? 'default';
    if (ns === BYSTANDER.metadata.namespace) continue; // the stand-in for system pods waits for no scheduler
    const name = p.metadata?.name ?? '';
    if (!out.has(key(ns, name))) out.set(key(ns, name), await c.waitForPodScheduled(ns, name));
  }
  return out;
}

async function main(): Promise<void> {
  const [scenarioFile, outDir] = process.argv.slice(2);
  if (!scenarioFile || !outDir) {
    console.error('usage: npx tsx test/e2e/harness/capture.ts <scenario.yaml> <outdir>');
    process.exit(2);
  }
  const scenario = readCaptureScenario(scenarioFile);
  mkdirSync(outDir, { recursive: true });
  const c = await startTestCluster();
  try {
    await c.apply([BYSTANDER]);
    await applyScenario(c, scenario);
    const explicit = unboundPods([...scenario.objects, ...(scenario.later ?? [])]).map((o): [string, string] => [o.metadata?.namespace ?? 'default', o.metadata?.name ?? '']);
    const decided = await settlePending(c, explicit);

    const unschedulable = [...decided.values()].filter(({ condition }) => condition.status === 'False' && condition.reason === 'Unschedulable');
    // The FailedScheduling events are written asynchronously; have them in the dump.
    for (const { pod } of unschedulable) {
      await c.waitForEvent(pod.metadata?.namespace ?? 'default', pod.metadata?.name ?? '', 'FailedScheduling').catch((e: unknown) =>
        console.error(`warning: ${e instanceof Error ? e.message : String(e)}`),
      );
    }
    await writeDumpDir(c, join(outDir, 'dump'));

    const nodeNames = scenario.nodes.map((n) => n.name);
    const pods: PodReport[] = [];
    for (const { pod, condition } of decided.values()) {
      const report: PodReport = {
        namespace: pod.metadata?.namespace ?? 'default',
        name: pod.metadata?.name ?? '',
        podScheduled: verdict(condition, pod),
        nodes: {},
      };
      if (condition.status === 'False' && condition.reason === 'Unschedulable') {
        // A Honor spread constraint counts only the nodes the pod's affinity allows: pin by cordons.
        report.pin = pinningHidesSpread(pod) ? 'cordon' : 'affinity';
        report.nodes = report.pin === 'cordon' ? await probeNodesByCordon(c, pod, nodeNames) : await probeNodes(c, pod, nodeNames);
      }
      pods.push(report);
    }
    const perNode = { kubernetesVersion: c.version, scenario: scenarioFile, capturedAt: new Date().toISOString(), pods };
    writeFileSync(join(outDir, 'per-node.json'), JSON.stringify(perNode, null, 2) + '\n');

    for (const p of pods) {
      console.log(`${p.namespace}/${p.name}: ${p.podScheduled.status} ${p.podScheduled.reason ?? ''} ${p.podScheduled.message ?? p.podScheduled.nodeName ?? ''}`);
      for (const [n, v] of Object.entries(p.nodes)) console.log(`  ${n}: ${v.error ?? `${v.status} ${v.reason ?? ''} ${v.message ?? v.nodeName ?? ''}`}`);
    }
    console.log(`wrote ${join(outDir, 'dump')} and ${join(outDir, 'per-node.json')}`);
  } finally {
    await c.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
