// Gangs on a real v1.37.2 control plane with GenericWorkload on and scheduling.k8s.io/v1beta1
// served (test/e2e/scenarios-gang): a gang short of pods, which the scheduler waits for in
// silence, and a gang that cannot be placed together. `kubectl why-pending` runs live as the
// README's read-only user and from a dump of the same cluster, and must tell the same stage
// and the same group facts both ways.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestCluster } from './harness/index.js';
import { applyScenario, readCaptureScenario } from './harness/scenario.js';
import { VIEWER, dumpCluster, startE2eCluster } from './harness/suite.js';
import { describeRun, whyPending, whyPendingAndCapture } from './harness/why-pending.js';
import { sleep } from './harness/wait.js';

const dir = join(import.meta.dirname, 'scenarios-gang');
let c: TestCluster;
let dump: string;

beforeAll(async () => {
  c = await startE2eCluster({ controlPlane: { featureGates: { GenericWorkload: true }, runtimeConfig: ['scheduling.k8s.io/v1beta1=true'] } });
  const full = readCaptureScenario(join(dir, 'gang-unschedulable.yaml'));
  const waiting = readCaptureScenario(join(dir, 'gang-waiting.yaml'));
  // One set of nodes: the waiting gang's pods are never bound, so they take no room.
  await applyScenario(c, full);
  await c.apply(waiting.objects);
  await c.waitForPodScheduled('gang-full', 'worker-2');
  // The waiting gang gets no word from the scheduler: give it the time it would take to speak.
  await sleep(5000);
  dump = await dumpCluster(c, 'gangs');
  const { stdout } = await c.kubectl(['get', 'podgroups', '-A', '-o', 'yaml']);
  writeFileSync(join(dump, 'podgroups.yaml'), stdout);
}, 240_000);

afterAll(async () => {
  await c?.stop();
});

describe('gangs, live and from a dump', () => {
  it('a gang short of pods is waited for, named with its minCount and its pods, never "no scheduler"', async () => {
    for (const args of [['worker-0', '-n', 'gang-wait', '-o', 'json'], ['worker-0', '-n', 'gang-wait', '-o', 'json', '--from-dump', dump]]) {
      const run = await whyPending(c, args.includes('--from-dump') ? undefined : VIEWER, args);
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.json?.stage).toBe('WaitingForGang');
      expect(run.json?.stageDetail).toMatchObject({ podGroup: 'gang-wait/train', found: true, minCount: 3, members: [{ name: 'worker-0' }, { name: 'worker-1' }] });
    }
  });

  it('a gang that cannot be placed together: the member that fits nowhere agrees with the scheduler, judged at its turn', async () => {
    for (const args of [['worker-2', '-n', 'gang-full', '-o', 'json'], ['worker-2', '-n', 'gang-full', '-o', 'json', '--from-dump', dump]]) {
      const run = await whyPending(c, args.includes('--from-dump') ? undefined : VIEWER, args);
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.json?.stage).toBe('GangUnschedulable');
      expect(run.json?.scheduler?.agrees, JSON.stringify(run.json?.scheduler)).toBe(true);
      const detail = run.json?.stageDetail as { placement?: { placed: unknown[]; unplaced: { member: string }[] }; condition?: { reason?: string } };
      expect(detail.placement?.placed).toHaveLength(2);
      expect(detail.placement?.unplaced.map((u) => u.member)).toEqual(['worker-2']);
      expect(detail.condition?.reason).toBe('Unschedulable');
    }
  });

  it('a member that fits alone reads the group\'s words, which are not taken for node counts', async () => {
    const run = await whyPendingAndCapture(c, VIEWER, ['worker-0', '-n', 'gang-full']);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toContain('cannot be scheduled with its gang: PodGroup gang-full/train needs 3 pods placed together');
    expect(run.stdout).toContain('about the group, not this pod');
    expect(run.stdout).not.toContain('disagree');
  });
});
