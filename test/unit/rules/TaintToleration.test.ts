import type { V1Toleration } from '@kubernetes/client-node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatToleration, tolerates } from '../../../src/engine/match/tolerations.js';
import rule from '../../../src/engine/rules/TaintToleration.js';
import { describeReason } from '../../../src/messages/reasons.js';
import { node, pod } from '../../support/builders.js';
import { runRule } from '../../support/rules.js';

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
    expect(m?.field === 'value' && m.diff?.kinds).toEqual(['case']);
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
    expect(m && 'diff' in m ? m.diff?.kinds : undefined).toEqual(kinds);
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

// Gt and Lt (KEP-5471): the matcher evaluates them, and the explanation says what it compared.
const slaNode = (value: string) => node('n').taint('example.com/sla', value, 'NoSchedule');
const slaTol = (operator: string, value: string): V1Toleration => ({ key: 'example.com/sla', operator, value, effect: 'NoSchedule' });

describe('TaintToleration with comparison operators', () => {
  it.each([
    { name: 'Gt passes when the taint value is greater', tol: slaTol('Gt', '900'), taint: '950' },
    { name: 'Lt passes when the taint value is less', tol: slaTol('Lt', '5'), taint: '2' },
    { name: 'Gt with negative integers', tol: slaTol('Gt', '-100'), taint: '-50' },
  ])('$name', ({ tol, taint }) => {
    expect(runRule(rule, pod('p').tolerate(tol).obj(), slaNode(taint).obj())).toEqual([]);
  });

  it.each([
    { name: 'Gt, the taint value is less', tol: slaTol('Gt', '950'), taint: '800', outcome: { kind: 'fails', tolerationValue: 950n, taintValue: 800n } },
    { name: 'Gt, equal values', tol: slaTol('Gt', '950'), taint: '950', outcome: { kind: 'fails', tolerationValue: 950n, taintValue: 950n } },
    { name: 'Lt, the taint value is greater', tol: slaTol('Lt', '800'), taint: '950', outcome: { kind: 'fails', tolerationValue: 800n, taintValue: 950n } },
    { name: 'Gt, a taint value that is not an integer', tol: slaTol('Gt', '950'), taint: 'high', outcome: { kind: 'invalidValue', side: 'taint', value: 'high', problem: 'notCanonicalInteger' } },
    { name: 'Lt, a taint value with a leading zero', tol: slaTol('Lt', '1000'), taint: '0950', outcome: { kind: 'invalidValue', side: 'taint', value: '0950', problem: 'notCanonicalInteger' } },
    { name: 'Gt, a decimal taint value (valid as a label value)', tol: slaTol('Gt', '90'), taint: '95.5', outcome: { kind: 'invalidValue', side: 'taint', value: '95.5', problem: 'notCanonicalInteger' } },
  ])('$name: rejected, with the comparison that failed', ({ tol, taint, outcome }) => {
    const [reason, ...rest] = runRule(rule, pod('p').tolerate(tol).obj(), slaNode(taint).obj());
    expect(rest).toEqual([]);
    const d = reason?.detail;
    if (d?.kind !== 'untoleratedTaint') throw new Error('wrong kind');
    expect(d.nearest).toBeUndefined();
    expect(d.comparisons).toEqual([{ toleration: tol, index: 0, operator: tol.operator, outcome }]);
    const text = describeReason(d);
    expect(text).not.toMatch(/not understood/);
    expect(text).toContain(`toleration #1 ${formatToleration(tol)}`);
    expect(text).toContain('TaintTolerationComparisonOperators');
  });

  it('says which numbers it compared', () => {
    const [reason] = runRule(rule, pod('p').tolerate(slaTol('Gt', '950')).obj(), slaNode('800').obj());
    expect(describeReason(reason!.detail)).toContain('needs a taint value greater than 950, and the node\'s is 800');
  });

  it('a Gt toleration for another key is neither a comparison nor a near miss', () => {
    const [reason] = runRule(rule, pod('p').tolerate({ key: 'other', operator: 'Gt', value: '1', effect: 'NoSchedule' }).obj(), slaNode('950').obj());
    expect(reason?.detail).toEqual({ kind: 'untoleratedTaint', taint: { key: 'example.com/sla', value: '950', effect: 'NoSchedule' } });
  });

  it('an operator the API rejects is named as such, not as one the scheduler evaluated', () => {
    const [reason] = runRule(rule, pod('p').tolerate({ key: 'dedicated', operator: 'exists', effect: 'NoSchedule' }).obj(), gpu().obj());
    const d = reason?.detail;
    if (d?.kind !== 'untoleratedTaint') throw new Error('wrong kind');
    expect(d.nearest?.mismatches).toEqual([{ field: 'operator', wanted: 'exists', actual: 'Equal, Exists, Gt, Lt', accepted: ['Equal', 'Exists', 'Gt', 'Lt'] }]);
    expect(describeReason(d)).toContain('operator "exists", which the API server rejects');
  });

  it('the matcher and the explanation agree for any Gt/Lt toleration and integer taint', () => {
    fc.assert(
      fc.property(fc.constantFrom('Gt', 'Lt'), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (operator, t, v) => {
        const tol = slaTol(operator, String(t));
        const reasons = runRule(rule, pod('p').tolerate(tol).obj(), slaNode(String(v)).obj());
        const expectedTolerated = operator === 'Gt' ? v > t : v < t;
        expect(reasons.length === 0).toBe(expectedTolerated);
        expect(reasons.length === 0).toBe(tolerates(tol, { key: 'example.com/sla', value: String(v), effect: 'NoSchedule' }));
        for (const r of reasons) {
          if (r.detail.kind !== 'untoleratedTaint') throw new Error('wrong kind');
          expect(r.detail.comparisons?.[0]?.outcome).toEqual({ kind: 'fails', tolerationValue: t, taintValue: v });
        }
      }),
    );
  });
});
