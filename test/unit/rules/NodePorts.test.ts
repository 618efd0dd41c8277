import { describe, expect, it } from 'vitest';
import rule from '../../../src/engine/rules/NodePorts.js';
import { node, pod } from '../../support/builders.js';
import { runRule } from './check.js';

const cases = [
  { name: 'a free host port fits', pod: pod('p').hostPort(8080), others: [pod('a').hostPort(9090).on('n')], conflicts: [] },
  { name: 'same port on another protocol fits', pod: pod('p').hostPort(53, 'UDP'), others: [pod('a').hostPort(53, 'TCP').on('n')], conflicts: [] },
  { name: 'same port on two specific addresses fits', pod: pod('p').hostPort(80, 'TCP', '10.0.0.1'), others: [pod('a').hostPort(80, 'TCP', '10.0.0.2').on('n')], conflicts: [] },
  { name: 'same port and protocol conflicts', pod: pod('p').hostPort(8080), others: [pod('a').hostPort(8080).on('n')], conflicts: [['default/a']] },
  { name: '0.0.0.0 conflicts with a specific address', pod: pod('p').hostPort(80, 'TCP', '10.0.0.1'), others: [pod('a').hostPort(80).on('n')], conflicts: [['default/a']] },
  { name: 'a finished pod frees its port', pod: pod('p').hostPort(8080), others: [pod('a').hostPort(8080).on('n').phase('Succeeded')], conflicts: [] },
];

describe('NodePorts', () => {
  it.each(cases)('$name', ({ pod: p, others, conflicts }) => {
    const reasons = runRule(rule, p.obj(), node('n').obj(), { pods: others.map((o) => o.obj()) });
    expect(reasons.map((r) => (r.detail.kind === 'hostPortInUse' ? r.detail.usedBy.map((u) => `${u.namespace}/${u.name}`) : []))).toEqual(conflicts);
    for (const r of reasons) expect(r.code).toBe('Unschedulable');
  });
});
