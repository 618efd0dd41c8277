import { describe, expect, it } from 'vitest';
import rule from '../../../src/engine/rules/TaintToleration.js';
import { node, pod } from '../../support/builders.js';
import { runRule } from './check.js';

const gpu = () => node('n').taint('dedicated', 'gpu', 'NoSchedule');

const passing = [
  { name: 'a matching Equal toleration passes', node: gpu(), pod: pod('p').tolerate({ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }) },
  { name: 'an empty operator means Equal', node: gpu(), pod: pod('p').tolerate({ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }) },
  { name: 'Exists ignores the value', node: gpu(), pod: pod('p').tolerate({ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }) },
  { name: 'an empty effect tolerates every effect', node: gpu(), pod: pod('p').tolerate({ key: 'dedicated', operator: 'Exists' }) },
  { name: 'an empty key with Exists tolerates everything', node: gpu(), pod: pod('p').tolerate({ operator: 'Exists' }) },
  { name: 'PreferNoSchedule taints never block', node: node('n').taint('dedicated', 'gpu', 'PreferNoSchedule'), pod: pod('p') },
  { name: 'a NoExecute toleration with tolerationSeconds still tolerates for scheduling', node: node('n').taint('k', 'v', 'NoExecute'), pod: pod('p').tolerate({ key: 'k', value: 'v', effect: 'NoExecute', tolerationSeconds: 30 }) },
];

describe('TaintToleration passes', () => {
  it.each(passing)('$name', ({ node: n, pod: p }) => {
    expect(runRule(rule, p.obj(), n.obj())).toEqual([]);
  });
});

describe('TaintToleration rejects, naming the nearest toleration', () => {
  it('a value differing only by letter case', () => {
    const [reason, ...rest] = runRule(rule, pod('p').tolerate({ key: 'dedicated', operator: 'Equal', value: 'GPU', effect: 'NoSchedule' }).obj(), gpu().obj());
    expect(rest).toEqual([]);
    expect(reason?.code).toBe('UnschedulableAndUnresolvable');
    const d = reason?.detail;
    if (d?.kind !== 'untoleratedTaint') throw new Error('wrong kind');
    expect(d.taint).toEqual({ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' });
    expect(d.nearest?.index).toBe(0);
    expect(d.nearest?.mismatches.map((m) => m.field)).toEqual(['value']);
    const m = d.nearest?.mismatches[0];
    expect(m?.field === 'value' && m.diff.kinds).toEqual(['case']);
  });

  it.each([
    { name: 'a trailing space in the key', tol: { key: 'dedicated ', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, field: 'key', kinds: ['trailingWhitespace'] },
    { name: 'a zero-width space in the value', tol: { key: 'dedicated', operator: 'Equal', value: 'g\u200Bpu', effect: 'NoSchedule' }, field: 'value', kinds: ['invisibleCharacter'] },
    { name: 'a Cyrillic look-alike in the value', tol: { key: 'dedicated', operator: 'Equal', value: 'gр\u0075'.replace('р', '\u0440'), effect: 'NoSchedule' }, field: 'value', kinds: ['lookAlike'] },
    { name: 'a non-breaking space in the key', tol: { key: 'dedicated\u00A0', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, field: 'key', kinds: ['nonBreakingSpace'] },
  ])('$name', ({ tol, field, kinds }) => {
    const [reason] = runRule(rule, pod('p').tolerate(tol).obj(), gpu().obj());
    const d = reason?.detail;
    if (d?.kind !== 'untoleratedTaint') throw new Error('wrong kind');
    const m = d.nearest?.mismatches.find((x) => x.field === field);
    expect(m && 'diff' in m ? m.diff.kinds : undefined).toEqual(kinds);
  });

  it('a PreferNoSchedule toleration against a NoSchedule taint', () => {
    const [reason] = runRule(rule, pod('p').tolerate({ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'PreferNoSchedule' }).obj(), gpu().obj());
    const d = reason?.detail;
    if (d?.kind !== 'untoleratedTaint') throw new Error('wrong kind');
    expect(d.nearest?.mismatches).toEqual([{ field: 'effect', wanted: 'PreferNoSchedule', actual: 'NoSchedule', preferNoScheduleAgainstNoSchedule: true }]);
  });

  it('Equal with a value against a taint without one', () => {
    const [reason] = runRule(rule, pod('p').tolerate({ key: 'gpu', operator: 'Equal', value: 'true', effect: 'NoSchedule' }).obj(), node('n').taint('gpu', undefined, 'NoSchedule').obj());
    const d = reason?.detail;
    if (d?.kind !== 'untoleratedTaint') throw new Error('wrong kind');
    const m = d.nearest?.mismatches[0];
    expect(m?.field === 'value' && m.taintHasNoValue).toBe(true);
  });

  it('lists every untolerated taint, not only the first', () => {
    const n = node('n').taint('a', '1', 'NoSchedule').taint('b', '2', 'NoExecute').taint('c', '3', 'PreferNoSchedule');
    expect(runRule(rule, pod('p').obj(), n.obj()).map((r) => r.detail.kind === 'untoleratedTaint' && r.detail.taint.key)).toEqual(['a', 'b']);
  });

  it('does not offer an unrelated toleration as a near miss', () => {
    const [reason] = runRule(rule, pod('p').tolerate({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }).obj(), gpu().obj());
    expect(reason?.detail).toEqual({ kind: 'untoleratedTaint', taint: { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' } });
  });
});
