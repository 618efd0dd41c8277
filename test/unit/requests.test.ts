// The effective request, as component-helpers PodRequests computes it (cases after its
// helpers_test.go: init containers, sidecars, overhead, pod-level resources).
import { describe, expect, it } from 'vitest';
import { requestOrigins } from '../../src/engine/resources/origins.js';
import { podRequestTotal, podRequests, RequestSum } from '../../src/engine/resources/requests.js';
import { QuantityError } from '../../src/engine/quantity/index.js';
import { pod } from '../support/builders.js';

const Gi = 1024n ** 3n;
const Mi = 1024n ** 2n;

const cases = [
  {
    name: 'sums regular containers',
    pod: pod('p').req({ cpu: '1', memory: '1Gi' }).container('b', { cpu: '500m', memory: '512Mi' }),
    total: { cpu: 1500n, memory: Gi + 512n * Mi },
  },
  {
    name: 'a larger init container wins resource by resource',
    pod: pod('p').req({ cpu: '1', memory: '1Gi' }).init('init', { cpu: '2', memory: '100Mi' }),
    total: { cpu: 2000n, memory: Gi },
  },
  {
    name: 'sidecars add to the containers',
    pod: pod('p').req({ cpu: '1' }).init('proxy', { cpu: '250m' }, true),
    total: { cpu: 1250n },
  },
  {
    name: 'an init container after a sidecar counts with it',
    pod: pod('p').req({ cpu: '1' }).init('proxy', { cpu: '500m' }, true).init('migrate', { cpu: '1' }),
    total: { cpu: 1500n },
  },
  {
    name: 'an init container before a sidecar does not count with it',
    pod: pod('p').req({ cpu: '100m' }).init('migrate', { cpu: '1' }).init('proxy', { cpu: '500m' }, true),
    total: { cpu: 1000n },
  },
  {
    name: 'init peak with two sidecars before it beats the containers',
    pod: pod('p').req({ cpu: '100m' }).init('a', { cpu: '300m' }, true).init('b', { cpu: '300m' }, true).init('c', { cpu: '1' }),
    total: { cpu: 1600n },
  },
  {
    name: 'overhead is added on top',
    pod: pod('p').req({ cpu: '1', memory: '1Gi' }).overhead({ cpu: '250m', memory: '120Mi' }),
    total: { cpu: 1250n, memory: Gi + 120n * Mi },
  },
  {
    name: 'pod-level requests replace cpu and memory but not extended resources',
    pod: pod('p').req({ cpu: '1', memory: '1Gi', 'nvidia.com/gpu': '1' }).podLevel({ cpu: '3', memory: '2Gi' }),
    total: { cpu: 3000n, memory: 2n * Gi, 'nvidia.com/gpu': 1n },
  },
  {
    name: 'pod-level requests, then overhead',
    pod: pod('p').req({ cpu: '1' }).podLevel({ cpu: '2' }).overhead({ cpu: '100m' }),
    total: { cpu: 2100n },
  },
  {
    name: 'limits without requests become requests',
    pod: pod('p').req({}, { cpu: '2', memory: '1Gi' }),
    total: { cpu: 2000n, memory: Gi },
  },
  {
    name: 'a request written next to a limit is kept',
    pod: pod('p').req({ cpu: '500m' }, { cpu: '2' }),
    total: { cpu: 500n },
  },
  {
    name: 'milli-cpu is exact: ten 100m containers make exactly 1',
    pod: [...Array(9).keys()].reduce((b, i) => b.container(`c${i}`, { cpu: '100m' }), pod('p').req({ cpu: '0.1' })),
    total: { cpu: 1000n },
  },
  {
    name: 'an in-place resize in progress counts the larger of spec and allocated',
    pod: pod('p').req({ cpu: '1' }).with((p) => {
      p.status = { phase: 'Running', containerStatuses: [{ name: 'app', image: 'app', imageID: '', ready: true, restartCount: 0, allocatedResources: { cpu: '2' } }] };
    }),
    total: { cpu: 2000n },
  },
];

describe('podRequests', () => {
  it.each(cases)('$name', ({ pod: builder, total }) => {
    expect(podRequests(builder.obj()).total).toEqual(total);
  });

  // The total of a pod already on a node takes a shorter way for plain pods: same answer.
  it.each(cases)('podRequestTotal: $name', ({ pod: builder, total }) => {
    const obj = builder.obj();
    expect(podRequestTotal(obj)).toEqual(total);
    expect(Object.keys(podRequestTotal(obj))).toEqual(Object.keys(podRequests(obj).total));
  });

  // A node's requested total (the per-snapshot node index) is summed in numbers while exact.
  it('RequestSum: the sum of every case is the sum of their totals', () => {
    const sum = new RequestSum();
    const want: Record<string, bigint> = {};
    for (const { pod: builder } of cases) {
      const obj = builder.obj();
      sum.add(obj);
      for (const [resource, amount] of Object.entries(podRequestTotal(obj))) want[resource] = (want[resource] ?? 0n) + amount;
    }
    expect(sum.total()).toEqual(want);
  });

  it('RequestSum: amounts and sums beyond 2^53 stay exact', () => {
    const sum = new RequestSum();
    // 4Pi of memory three times: each a safe integer, their sum not (2^53 is 8Pi).
    for (let i = 0; i < 3; i++) sum.add(pod(`p${i}`).req({ memory: '4Pi', cpu: '1' }).obj());
    sum.add(pod('huge').req({ 'example.com/bytes': '8Ei' }).obj());
    sum.add(pod('tiny').req({ 'example.com/bytes': '1' }).obj());
    expect(sum.total()).toEqual({ memory: 3n * 4n * 1024n ** 5n, cpu: 3000n, 'example.com/bytes': 2n ** 63n - 1n + 1n });
  });

  it('RequestSum: a quantity that does not parse throws its QuantityError', () => {
    const sum = new RequestSum();
    expect(() => sum.add(pod('bad').req({ cpu: '1 core' }).obj())).toThrow(QuantityError);
  });

  it('says which requests were copied from limits and which a LimitRange set', () => {
    const p = pod('p')
      .req({}, { cpu: '2' })
      .container('side', { memory: '64Mi' })
      .with((x) => {
        x.metadata!.annotations = { 'kubernetes.io/limit-ranger': 'LimitRanger plugin set: memory request for container side' };
      })
      .obj();
    expect(requestOrigins(p)).toEqual([
      { container: 'app', resource: 'cpu', quantity: '2', from: 'limits', evidence: 'podSpec' },
      { container: 'side', resource: 'memory', quantity: '64Mi', from: 'limitRange', evidence: 'limitRangerAnnotation' },
    ]);
  });
});
