// present() returns the JSON document itself, as DiagnosisV1 types it: no bigint or Date left for
// JSON.stringify to turn into something else, so the type describes what -o json prints. Read
// from a live cluster, a taint's timeAdded is a Date; amounts are bigint in the engine.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { ruleSet } from '../../src/messages/registry.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { present } from '../../src/report/present.js';
import { readDump } from '../../src/sources/dump/read.js';
import { expectValidDiagnosis } from '../support/schema.js';

async function example(): Promise<Diagnosis> {
  const snapshot = await readDump(path.resolve(import.meta.dirname, '..', '..', 'examples', 'gpu-taint-typo.yaml'), process.stdin);
  const outcome = diagnose(ruleSet, snapshot, { namespace: 'shop', name: 'web-0' });
  if (outcome.kind !== 'diagnosis') throw new Error(`no diagnosis: ${outcome.kind}`);
  return outcome.diagnosis;
}

describe('present', () => {
  it('gives amounts as decimal strings and dates as ISO strings, already as JSON.parse would read them', async () => {
    const d = await example();
    const taint = d.nodes.flatMap((n) => n.reasons).find((r) => r.detail.kind === 'untoleratedTaint');
    if (taint?.detail.kind !== 'untoleratedTaint') throw new Error('the example has no untoleratedTaint reason');
    taint.detail.taint.timeAdded = new Date('2025-01-02T03:04:05Z');

    const doc = present(d);
    expect(doc).toEqual(JSON.parse(JSON.stringify(doc)));
    const reasons = doc.nodes.flatMap((n) => n.reasons);
    expect(reasons.find((r) => r.kind === 'untoleratedTaint')).toMatchObject({ taint: { timeAdded: '2025-01-02T03:04:05.000Z' } });
    expect(reasons.find((r) => r.kind === 'insufficientResource')).toMatchObject({ requested: '2000', allocatable: expect.stringMatching(/^[0-9]+$/) });
    expectValidDiagnosis(doc);
  });

  it('gives character detail only for the characters that differ, each with its position', async () => {
    const doc = present(await example());
    const taint = doc.nodes.flatMap((n) => n.reasons).find((r) => r.kind === 'untoleratedTaint');
    // "GPU" against "gpu": three changed characters, no unchanged ones.
    expect(taint).toMatchObject({
      nearest: {
        mismatches: [
          {
            field: 'value',
            diff: {
              kinds: ['case'],
              ops: [
                { op: 'changed', wanted: { char: 'G' }, wantedPosition: 1, actual: { char: 'g' }, actualPosition: 1 },
                { op: 'changed', wantedPosition: 2 },
                { op: 'changed', wantedPosition: 3 },
              ],
            },
          },
        ],
      },
    });
    expect(JSON.stringify(doc)).not.toContain('"op":"same"');
  });

  it('leaves the diagnosis as it was', async () => {
    const d = await example();
    const before = structuredClone(d);
    present(d);
    expect(d).toEqual(before);
  });
});
