import { describe, expect, it } from 'vitest';
import rule from '../../../src/engine/rules/NodeResourcesFit.js';
import { node, pod } from '../../support/builders.js';
import { runRule } from '../../support/rules.js';

const Gi = 1024n ** 3n;
const small = node('n').allocatable({ cpu: '2', memory: '4Gi', pods: '3' });

const cases = [
  { name: 'fits when the request equals what is free', pod: pod('p').req({ cpu: '1' }), others: [pod('a').req({ cpu: '1' }).on('n')], want: [] },
  { name: 'a pod with no requests fits anywhere with room for one more pod', pod: pod('p'), others: [], want: [] },
  {
    name: 'too many resources fails due to cpu, with the shortfall in millicores',
    pod: pod('p').req({ cpu: '1500m' }),
    others: [pod('a').req({ cpu: '1' }).on('n')],
    want: [{ resource: 'cpu', requested: 1500n, used: 1000n, allocatable: 2000n, free: 1000n, short: 500n, exceedsAllocatable: false }],
  },
  {
    name: 'too many resources fails due to init container cpu',
    pod: pod('p').req({ cpu: '100m' }).init('init', { cpu: '3' }),
    others: [],
    want: [{ resource: 'cpu', requested: 3000n, used: 0n, allocatable: 2000n, free: 2000n, short: 1000n, exceedsAllocatable: true }],
  },
  {
    name: 'every short resource is reported, pods first',
    pod: pod('p').req({ cpu: '2', memory: '4Gi' }),
    others: [pod('a').req({ cpu: '1', memory: '1Gi' }).on('n'), pod('b').on('n'), pod('c').on('n')],
    want: [
      { resource: 'pods', requested: 1n, used: 3n, allocatable: 3n, free: 0n, short: 1n, exceedsAllocatable: false },
      { resource: 'cpu', requested: 2000n, used: 1000n, allocatable: 2000n, free: 1000n, short: 1000n, exceedsAllocatable: false },
      { resource: 'memory', requested: 4n * Gi, used: Gi, allocatable: 4n * Gi, free: 3n * Gi, short: Gi, exceedsAllocatable: false },
    ],
  },
  {
    name: 'an extended resource the node lacks is insufficient and unresolvable',
    pod: pod('p').req({ 'nvidia.com/gpu': '1' }),
    others: [],
    want: [{ resource: 'nvidia.com/gpu', requested: 1n, used: 0n, allocatable: 0n, free: 0n, short: 1n, exceedsAllocatable: true }],
  },
  {
    name: 'succeeded and failed pods do not count',
    pod: pod('p').req({ cpu: '2' }),
    others: [pod('done').req({ cpu: '2' }).on('n').phase('Succeeded'), pod('crashed').req({ cpu: '2' }).on('n').phase('Failed')],
    want: [],
  },
  {
    name: 'pod overhead can tip the balance',
    pod: pod('p').req({ cpu: '1' }).overhead({ cpu: '250m' }),
    others: [pod('a').req({ cpu: '1' }).on('n')],
    // The detail says how much of the request is overhead, for the headline's "1000m + 250m overhead".
    want: [{ resource: 'cpu', requested: 1250n, used: 1000n, allocatable: 2000n, free: 1000n, short: 250n, exceedsAllocatable: false, overhead: { amount: 250n } }],
  },
  {
    name: 'a GPU short names the pods holding it, most first, and no pod that holds none',
    pod: pod('p').req({ 'nvidia.com/gpu': '2' }),
    others: [pod('one').req({ 'nvidia.com/gpu': '1' }).on('n'), pod('cpu-only').req({ cpu: '1' }).on('n'), pod('two').req({ 'nvidia.com/gpu': '2' }).on('n')],
    node: node('n').allocatable({ cpu: '2', memory: '4Gi', pods: '10', 'nvidia.com/gpu': '4' }),
    want: [
      {
        resource: 'nvidia.com/gpu', requested: 2n, used: 3n, allocatable: 4n, free: 1n, short: 1n, exceedsAllocatable: false,
        holders: [{ namespace: 'default', name: 'two', amount: 2n }, { namespace: 'default', name: 'one', amount: 1n }],
        holderCount: 2,
      },
    ],
  },
  {
    name: 'holders are capped at five, with the whole count',
    pod: pod('p').req({ 'nvidia.com/gpu': '1' }),
    others: ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) => pod(n).req({ 'nvidia.com/gpu': '1' }).on('n')),
    node: node('n').allocatable({ cpu: '2', memory: '4Gi', pods: '10', 'nvidia.com/gpu': '7' }),
    want: [
      {
        resource: 'nvidia.com/gpu', requested: 1n, used: 7n, allocatable: 7n, free: 0n, short: 1n, exceedsAllocatable: false,
        holders: ['a', 'b', 'c', 'd', 'e'].map((name) => ({ namespace: 'default', name, amount: 1n })),
        holderCount: 7,
      },
    ],
  },
  { name: 'resources the scheduler does not track are ignored', pod: pod('p').req({ storage: '10Ti' }), others: [], want: [] },
];

describe('NodeResourcesFit', () => {
  it.each(cases)('$name', ({ pod: p, others, want, ...c }) => {
    const target = ('node' in c ? c.node : undefined) ?? small;
    const reasons = runRule(rule, p.obj(), target.obj(), { pods: others.map((o) => o.obj()) });
    expect(reasons.map((r) => ({ ...r.detail }))).toEqual(want.map((w) => ({ kind: 'insufficientResource', ...w })));
    const code = want.some((w) => w.exceedsAllocatable) ? 'UnschedulableAndUnresolvable' : 'Unschedulable';
    for (const r of reasons) expect([r.plugin, r.code]).toEqual(['NodeResourcesFit', code]);
  });
});
