// Captures a scenario with Karpenter's KWOK provider and kwok (harness/karpenter.ts) running:
//
//   npx tsx test/e2e/harness/capture-karpenter.ts <scenario.yaml> <outdir>
//
// Scenario file (test/e2e/scenarios-karpenter/*.yaml; apart from scenarios-capture/, whose files
// live-scenarios.test.ts runs without Karpenter):
//   nodeRegistrationDelay: "10m"   (optional: NodeClaims stay launched, not registered)
//   nodes:   [{ name, labels?, taints?, allocatable? }]   (kwok keeps them Ready)
//   objects: [ NodePools, then Pods; each Pod without spec.nodeName waits for Karpenter's word ]
//
// Writes <outdir>/cluster.yaml (one List of what `kubectl get <kind> -A -o yaml` gives for each
// kind, Karpenter's NodePools and NodeClaims included, managedFields removed) once Karpenter has
// written a Nominated or FailedScheduling event on every pending pod.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { NodeSpec, Obj } from './cluster.js';
import { startTestCluster } from './index.js';
import { KWOK_ANNOTATION, karpenterControlPlane, startKarpenter } from './karpenter.js';
import { BYSTANDER, writeDumpDir } from './probe.js';
import { waitFor } from './wait.js';

interface Scenario {
  nodeRegistrationDelay?: string;
  nodes: (NodeSpec & { name: string })[];
  objects: Obj[];
}

function itemsOf(file: string): Record<string, unknown>[] {
  const list = parse(readFileSync(file, 'utf8')) as { items?: { metadata?: Record<string, unknown> }[] } | null;
  for (const item of list?.items ?? []) delete item.metadata?.['managedFields'];
  return (list?.items ?? []) as Record<string, unknown>[];
}

async function main(): Promise<void> {
  const [scenarioFile, outDir] = process.argv.slice(2);
  if (!scenarioFile || !outDir) {
    console.error('usage: npx tsx test/e2e/harness/capture-karpenter.ts <scenario.yaml> <outdir>');
    process.exit(2);
  }
  const scenario = parse(readFileSync(scenarioFile, 'utf8')) as Scenario;
  const c = await startTestCluster(karpenterControlPlane());
  const k = await startKarpenter(c, scenario.nodeRegistrationDelay ? { nodeRegistrationDelay: scenario.nodeRegistrationDelay } : {});
  try {
    for (const { name, ...spec } of scenario.nodes ?? []) {
      await c.createNode(name, { ...spec, annotations: { ...spec.annotations, [KWOK_ANNOTATION.key]: KWOK_ANNOTATION.value } });
    }
    const pools = scenario.objects.filter((o) => o.kind === 'NodePool');
    await c.apply(pools);
    // Each NodePool's conditions are set (Ready or not) before the pods come.
    for (const pool of pools) await c.kubectl(['wait', '--for=jsonpath={.status.conditions[?(@.type=="ValidationSucceeded")].status}=True', '--timeout=60s', `nodepool/${pool.metadata?.name ?? ''}`]);
    await c.apply([BYSTANDER, ...scenario.objects.filter((o) => o.kind !== 'NodePool')]);
    const pending = scenario.objects.filter((o) => o.kind === 'Pod' && !(o.spec as { nodeName?: string } | undefined)?.nodeName);
    for (const pod of pending) {
      const ns = pod.metadata?.namespace ?? 'default';
      const name = pod.metadata?.name ?? '';
      const event = await waitFor(`Karpenter's word on ${ns}/${name}`, async () => {
        const list = await c.api.get<{ items: { reason?: string; message?: string; reportingComponent?: string; source?: { component?: string } }[] }>(
          `/api/v1/namespaces/${ns}/events?fieldSelector=${encodeURIComponent(`involvedObject.name=${name}`)}`,
        );
        return list.items.find((e) => (e.reportingComponent || e.source?.component) === 'karpenter' && (e.reason === 'Nominated' || e.reason === 'FailedScheduling'));
      }, { timeoutMs: 120_000 });
      console.log(`${ns}/${name}: ${event.reason ?? ''}: ${event.message ?? ''}`);
    }
    // One List, as the scenario folders keep it (test/scenarios/captured-1.37-karpenter-*/cluster.yaml).
    const dir = join(outDir, 'kinds');
    await writeDumpDir(c, dir);
    for (const kind of ['nodepools', 'nodeclaims']) {
      const { stdout } = await c.kubectl(['get', kind, '-o', 'yaml']);
      writeFileSync(join(dir, `${kind}.yaml`), stdout);
    }
    const items = readdirSync(dir).sort().flatMap((f) => itemsOf(join(dir, f)));
    const file = join(outDir, 'cluster.yaml');
    const header = `# Captured by test/e2e/harness/capture-karpenter.ts from ${scenarioFile}\n# (sigs.k8s.io/karpenter v1.15.0 KWOK provider, sigs.k8s.io/kwok v0.8.0, Kubernetes ${c.version}); managedFields removed.\n`;
    writeFileSync(file, header + stringify({ apiVersion: 'v1', kind: 'List', items }));
    console.log(`wrote ${file} (${c.version}, Karpenter's KWOK provider)`);
  } finally {
    await k.stop();
    await c.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
