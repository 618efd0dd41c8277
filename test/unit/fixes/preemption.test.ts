import { describe, expect, it } from 'vitest';
import { node, pod } from '../../support/builders.js';
import { fixesFor } from '../../support/fixes.js';

const at = (time: string) => (p: { status?: { startTime?: Date } }) => {
  p.status = { ...p.status, startTime: new Date(time) };
};

const preempting = () => pod('high').req({ cpu: '2' }).with((p) => (p.spec!.priority = 1000));
const running = (name: string, cpu: string, priority: number, start: string) =>
  pod(name).req({ cpu }).on('n').with((p) => (p.spec!.priority = priority)).with(at(start)).obj();

describe('preemption victims', () => {
  it('removes the fewest lower-priority pods, reprieving the more important first (priority, then earlier start)', () => {
    const pods = [running('sys', '1', 2000, '2026-01-01T00:00:00Z'), running('late', '1', 0, '2026-01-01T02:00:00Z'), running('early', '2', 0, '2026-01-01T01:00:00Z')];
    const fixes = fixesFor(preempting().obj(), [node('n').obj()], { pods });
    expect(fixes.map((f) => f.changes)).toEqual([[{ kind: 'preempt', cause: 'NodeResourcesFit', node: 'n', victims: [{ namespace: 'default', name: 'early', priority: 0 }], budgetsKnown: true }]]);
    expect(fixes[0]?.makesFit).toEqual(['n']);
  });

  it('reprieves a pod a PodDisruptionBudget protects before the others, as the scheduler does', () => {
    const a = running('a', '2', 0, '2026-01-01T01:00:00Z');
    const b = pod('b').labels({ app: 'b' }).req({ cpu: '2' }).on('n').with((p) => (p.spec!.priority = 0)).with(at('2026-01-01T02:00:00Z')).obj();
    const budget = { metadata: { name: 'b-pdb', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'b' } } }, status: { disruptionsAllowed: 0 } };
    // Without the budget, the earlier-started a is reprieved first and b goes; with it, b is kept.
    const victimsOf = (budgets: (typeof budget)[]) =>
      fixesFor(preempting().obj(), [node('n').obj()], { pods: [a, b], podDisruptionBudgets: budgets as never }).flatMap((f) => f.changes.flatMap((c) => (c.kind === 'preempt' ? c.victims.map((v) => v.name) : [])));
    expect(victimsOf([])).toEqual(['b']);
    expect(victimsOf([budget])).toEqual(['a']);
  });

  it('never removes a pod of equal or higher priority', () => {
    const pods = [running('peer', '3', 1000, '2026-01-01T00:00:00Z'), running('boss', '1', 5000, '2026-01-01T00:00:00Z')];
    expect(fixesFor(preempting().obj(), [node('n').obj()], { pods })).toEqual([]);
  });

  it('is not offered to a pod whose preemptionPolicy is Never', () => {
    const pods = [running('low', '4', 0, '2026-01-01T00:00:00Z')];
    const target = preempting().with((p) => (p.spec!.preemptionPolicy = 'Never')).obj();
    expect(fixesFor(target, [node('n').obj()], { pods })).toEqual([]);
  });

  it('is not offered alone on a node that fails for a reason preemption cannot resolve; only after the change that resolves it', () => {
    const pods = [running('low', '4', 0, '2026-01-01T00:00:00Z')];
    const tainted = node('n').taint('a', 'b', 'NoSchedule').obj();
    const fixes = fixesFor(preempting().obj(), [tainted], { pods });
    expect(fixes.map((f) => f.changes.map((c) => c.kind))).toEqual([['tolerateTaint', 'preempt']]);
  });
});
