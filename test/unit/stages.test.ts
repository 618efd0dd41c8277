// The stage registries: the engine's traits (engine/stage.ts) and the words (messages/stages.ts)
// list every stage once, in the same order (the order a pod meets them, README's "Stages"), and
// say each the way the diagnosis JSON schema names it; the recognisers (engine/stages/) return
// every stage but AdmissionRejected (a pod that does not exist: the target's resolver), each
// from one recogniser. A new stage fails here until all three list it.
import { describe, expect, it } from 'vitest';
import { judgedStages, schedulerJudgedStages, stageTraits } from '../../src/engine/stage.js';
import { stageRecognisers } from '../../src/engine/stages/index.js';
import { stageWords } from '../../src/messages/stages.js';
import { schema } from '../support/schema.js';
import { emptyCollections } from '../../src/snapshot/types.js';

const stageEnum = (schema.$defs['Stage'] as { enum?: string[] } | undefined)?.enum ?? [];

describe('stages', () => {
  it('the engine and the words list the same stages, in the same order', () => {
    expect(Object.keys(stageWords)).toEqual(Object.keys(stageTraits));
  });

  it('every stage the schema knows, and no other', () => {
    expect(stageEnum.length).toBeGreaterThan(0);
    expect([...Object.keys(stageTraits)].sort()).toEqual([...stageEnum].sort());
  });

  it('every stage of a pod that exists has one recogniser, and the last answers every pod', () => {
    const recognised = stageRecognisers.flatMap((r) => r.stages);
    expect(new Set(recognised).size).toBe(recognised.length);
    expect([...recognised, 'AdmissionRejected'].sort()).toEqual(Object.keys(stageTraits).sort());
    const last = stageRecognisers.at(-1);
    const pod = { metadata: { name: 'p', namespace: 'ns' }, status: { phase: 'Pending' } };
    const snapshot = { source: { kind: 'dump' as const, description: 'none' }, objects: emptyCollections(), gaps: [] };
    expect(last?.recognise({ snapshot, pod, podEvents: [] })?.stage).toBe('NoScheduler');
  });

  it('the scheduler judges only stages whose nodes are replayed', () => {
    for (const s of schedulerJudgedStages) expect(judgedStages.has(s), s).toBe(true);
  });

  it('each stage has a few words for a triage line, distinct from the others', () => {
    const briefly = Object.values(stageWords).map((w) => w.briefly);
    expect(briefly.every((b) => b.length > 0 && b.length <= 32)).toBe(true);
    expect(new Set(briefly).size).toBe(briefly.length);
  });
});
