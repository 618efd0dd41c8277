// Reasons the scheduler counts twice that the human report tells once (report/human/asOne.ts):
// a symmetric anti-affinity, and a cordon with its taint. -o json keeps both.
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { ruleSet } from '../../src/messages/registry.js';
import { reportHuman } from '../../src/report/human/index.js';
import { present } from '../../src/report/present.js';
import { antiAffinity } from '../support/affinity-builders.js';
import { node, pod, snapshotOf } from '../support/builders.js';

describe('twins told once', () => {
  it("a symmetric anti-affinity is one line in the report, two reasons in -o json", () => {
    const db = (name: string) => pod(name, 'data').labels({ app: 'db' }).with(antiAffinity('kubernetes.io/hostname', { app: 'db' }));
    const target = db('db-1').obj();
    const snapshot = snapshotOf({ nodes: [node('n1').labels({ 'kubernetes.io/hostname': 'n1' }).obj()], pods: [db('db-0').on('n1').obj(), target] });
    const outcome = diagnose(ruleSet, snapshot, { namespace: 'data', name: 'db-1' });
    if (outcome.kind !== 'diagnosis') throw new Error('no diagnosis');
    let text = '';
    reportHuman(outcome.diagnosis, { write: (s) => (text += s), color: false, columns: 200 }, { wide: true });
    expect(text).toContain('their own anti-affinity rejects this pod too');
    expect(text).not.toContain('data/db-0 on n1 has anti-affinity term 1');
    const json = present(outcome.diagnosis);
    expect(json.nodes[0]?.reasons.map((r) => r.kind)).toEqual(['podAntiAffinityConflict', 'existingPodAntiAffinityConflict']);
  });
});
