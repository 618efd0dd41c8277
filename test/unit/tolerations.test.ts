// Toleration matching, case for case with k8s.io/api core/v1 toleration_test.go (v1.35-v1.37):
// TestTolerationToleratesTaint and TestCompareNumericValues, by their upstream descriptions.
// Upstream runs the Gt/Lt cases with enableComparisonOperators=true; so do we (a pod with Gt or
// Lt exists only where the API server has TaintTolerationComparisonOperators on).
import type { V1Taint, V1Toleration } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { compareValues, parseCanonicalInt64, tolerates, type ComparisonOperator } from '../../src/engine/match/tolerations.js';

const sla = 'node.kubernetes.io/sla';
const noSchedule = 'NoSchedule';

// [upstream description, toleration, taint, tolerated]
const toleratesTaint: [string, V1Toleration, V1Taint, boolean][] = [
  [
    'toleration and taint have the same key and effect, and operator is Exists, and taint has no value, expect tolerated',
    { key: 'foo', operator: 'Exists', effect: noSchedule },
    { key: 'foo', effect: noSchedule },
    true,
  ],
  [
    'toleration and taint have the same key and effect, and operator is Exists, and taint has some value, expect tolerated',
    { key: 'foo', operator: 'Exists', effect: noSchedule },
    { key: 'foo', value: 'bar', effect: noSchedule },
    true,
  ],
  [
    'toleration and taint have the same effect, toleration has empty key and operator is Exists, means match all taints, expect tolerated',
    { key: '', operator: 'Exists', effect: noSchedule },
    { key: 'foo', value: 'bar', effect: noSchedule },
    true,
  ],
  [
    'toleration and taint have the same key, effect and value, and operator is Equal, expect tolerated',
    { key: 'foo', operator: 'Equal', value: 'bar', effect: noSchedule },
    { key: 'foo', value: 'bar', effect: noSchedule },
    true,
  ],
  [
    'toleration and taint have the same key and effect, but different values, and operator is Equal, expect not tolerated',
    { key: 'foo', operator: 'Equal', value: 'value1', effect: noSchedule },
    { key: 'foo', value: 'value2', effect: noSchedule },
    false,
  ],
  [
    'toleration and taint have the same key and value, but different effects, and operator is Equal, expect not tolerated',
    { key: 'foo', operator: 'Equal', value: 'bar', effect: noSchedule },
    { key: 'foo', value: 'bar', effect: 'NoExecute' },
    false,
  ],
  ['toleration with Gt operator - taint value less than toleration value, expect not tolerated', { key: sla, operator: 'Gt', value: '950', effect: noSchedule }, { key: sla, value: '800', effect: noSchedule }, false],
  ['toleration with Gt operator - taint value greater than toleration value, expect tolerated', { key: sla, operator: 'Gt', value: '750', effect: noSchedule }, { key: sla, value: '950', effect: noSchedule }, true],
  ['toleration with Lt operator - taint value greater than toleration value, expect not tolerated', { key: sla, operator: 'Lt', value: '800', effect: noSchedule }, { key: sla, value: '950', effect: noSchedule }, false],
  ['toleration with Lt operator - taint value less than toleration value, expect tolerated', { key: sla, operator: 'Lt', value: '950', effect: noSchedule }, { key: sla, value: '800', effect: noSchedule }, true],
  ['toleration with Gt operator and taint with equal numeric value, expect not tolerated', { key: sla, operator: 'Gt', value: '950', effect: noSchedule }, { key: sla, value: '950', effect: noSchedule }, false],
  ['toleration with Gt operator and taint with non-numeric value, expect not tolerated', { key: sla, operator: 'Gt', value: '950', effect: noSchedule }, { key: sla, value: 'high', effect: noSchedule }, false],
  [
    'toleration with Gt operator and negative numeric values - taint value less than threshold, expect not tolerated',
    { key: 'test-key', operator: 'Gt', value: '-100', effect: noSchedule },
    { key: 'test-key', value: '-200', effect: noSchedule },
    false,
  ],
  [
    'toleration with Gt operator and large int64 values - taint value less than threshold, expect not tolerated',
    { key: 'test-key', operator: 'Gt', value: '9223372036854775806', effect: noSchedule },
    { key: 'test-key', value: '100', effect: noSchedule },
    false,
  ],
  // Not upstream cases, but what the same code does.
  ['an empty operator means Equal', { key: 'foo', value: 'bar' }, { key: 'foo', value: 'bar', effect: noSchedule }, true],
  ['an operator the API does not accept tolerates nothing (the switch default)', { key: 'foo', operator: 'exists', effect: noSchedule }, { key: 'foo', effect: noSchedule }, false],
  ['Gt with an empty effect applies to every effect', { key: sla, operator: 'Gt', value: '900' }, { key: sla, value: '950', effect: 'NoExecute' }, true],
  ['Gt on another key does not apply', { key: 'other', operator: 'Gt', value: '1' }, { key: sla, value: '950', effect: noSchedule }, false],
  ['Gt against a taint without a value: "" is not an integer', { key: sla, operator: 'Gt', value: '0' }, { key: sla, effect: noSchedule }, false],
  ['Lt against a taint value with a leading zero: "0950" is not canonical', { key: sla, operator: 'Lt', value: '1000' }, { key: sla, value: '0950', effect: noSchedule }, false],
];

describe('tolerates, upstream TestTolerationToleratesTaint', () => {
  it.each(toleratesTaint)('%s', (_name, toleration, taint, tolerated) => {
    expect(tolerates(toleration, taint)).toBe(tolerated);
  });
});

// [upstream description, toleration value, taint value, operator, result]
const numeric: [string, string, string, ComparisonOperator | 'Equal' | 'Exists', boolean][] = [
  ['Gt operator - taint value greater than toleration value, expect true', '100', '200', 'Gt', true],
  ['Gt operator - taint value less than toleration value, expect false', '200', '100', 'Gt', false],
  ['Gt operator - taint value equal to toleration value, expect false', '100', '100', 'Gt', false],
  ['Gt operator - negative numbers, taint greater, expect true', '-100', '-50', 'Gt', true],
  ['Gt operator - negative numbers, taint less, expect false', '-50', '-100', 'Gt', false],
  ['Gt operator - zero and positive, expect true', '0', '1', 'Gt', true],
  ['Gt operator - large int64 values, taint greater, expect true', '9223372036854775806', '9223372036854775807', 'Gt', true],
  ['Lt operator - taint value less than toleration value, expect true', '200', '100', 'Lt', true],
  ['Lt operator - taint value greater than toleration value, expect false', '100', '200', 'Lt', false],
  ['Lt operator - taint value equal to toleration value, expect false', '100', '100', 'Lt', false],
  ['Lt operator - negative numbers, taint less, expect true', '-50', '-100', 'Lt', true],
  ['Lt operator - negative numbers, taint greater, expect false', '-100', '-50', 'Lt', false],
  ['Lt operator - zero and negative, expect true', '0', '-1', 'Lt', true],
  ['Gt operator - invalid toleration value (non-numeric), expect false', 'abc', '100', 'Gt', false],
  ['Gt operator - invalid toleration value (empty string), expect false', '', '100', 'Gt', false],
  ['Gt operator - invalid toleration value (leading zero), expect false', '0100', '200', 'Gt', false],
  ['Gt operator - invalid toleration value (plus sign), expect false', '+100', '200', 'Gt', false],
  ['Gt operator - invalid toleration value (floating point), expect false', '100.5', '200', 'Gt', false],
  ['Gt operator - invalid toleration value (just minus sign), expect false', '-', '100', 'Gt', false],
  ['Gt operator - invalid taint value (non-numeric), expect false', '100', 'xyz', 'Gt', false],
  ['Gt operator - invalid taint value (empty string), expect false', '100', '', 'Gt', false],
  ['Gt operator - invalid taint value (leading zero), expect false', '100', '0200', 'Gt', false],
  ['Lt operator - invalid taint value (plus sign), expect false', '100', '+200', 'Lt', false],
  ['Lt operator - invalid taint value (spaces), expect false', '100', ' 200 ', 'Lt', false],
  ['Equal operator (unsupported for numeric comparison), expect false', '100', '100', 'Equal', false],
  ['Exists operator (unsupported for numeric comparison), expect false', '100', '100', 'Exists', false],
  ['Gt operator - both zero, expect false', '0', '0', 'Gt', false],
  ['Lt operator - both zero, expect false', '0', '0', 'Lt', false],
  ['Gt operator - max int64 as taint, expect true', '0', '9223372036854775807', 'Gt', true],
  ['Lt operator - min int64 as taint, expect true', '0', '-9223372036854775808', 'Lt', true],
];

describe('compareValues, upstream TestCompareNumericValues', () => {
  it.each(numeric)('%s', (_name, tolerationValue, taintValue, operator, result) => {
    // compareNumericValues answers false for Equal and Exists; so does the comparison path here,
    // which only Gt and Lt reach.
    const holds = operator === 'Gt' || operator === 'Lt' ? compareValues(operator, tolerationValue, taintValue).kind === 'holds' : false;
    expect(holds).toBe(result);
  });
});

describe('what a failed comparison reports', () => {
  it('the two integers, when both parse', () => {
    expect(compareValues('Gt', '950', '800')).toEqual({ kind: 'fails', tolerationValue: 950n, taintValue: 800n });
  });

  it('the toleration first, as upstream parses it first', () => {
    expect(compareValues('Gt', '0100', 'high')).toEqual({ kind: 'invalidValue', side: 'toleration', value: '0100', problem: 'notCanonicalInteger' });
  });

  it('a taint value past int64 is out of range, not malformed', () => {
    expect(compareValues('Lt', '5', '9223372036854775808')).toEqual({ kind: 'invalidValue', side: 'taint', value: '9223372036854775808', problem: 'outOfInt64Range' });
  });

  it.each(['0', '5', '-5', '9223372036854775807', '-9223372036854775808'])('%s is a canonical int64', (v) => {
    expect(parseCanonicalInt64(v)).toEqual({ value: BigInt(v) });
  });

  it.each(['-0', '00', '+5', '5 ', '5.0', '1e3', '0x10', '٣'])('%j is not', (v) => {
    expect(parseCanonicalInt64(v)).toEqual({ problem: 'notCanonicalInteger' });
  });
});
