import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutOf, requestChanges } from '../../../src/engine/fixes/request.js';
import { node, pod } from '../../support/builders.js';
import { fixesFor } from '../../support/fixes.js';

const Mi = 1024n ** 2n;
const amounts = (list: Record<string, bigint>) => list;

describe('lowering a request to the largest free slot', () => {
  it.each([
    {
      name: 'one container: its own request goes down by the shortfall',
      pod: pod('p').req({ cpu: '2' }),
      slot: amounts({ cpu: 1500n }),
      want: [{ place: { in: 'containers', container: 'app' }, resource: 'cpu', from: 2000n, to: 1500n }],
    },
    {
      name: 'several containers: the largest one takes the cut',
      pod: pod('p').req({ cpu: '500m' }).container('big', { cpu: '1' }),
      slot: amounts({ cpu: 1200n }),
      want: [{ place: { in: 'containers', container: 'big' }, resource: 'cpu', from: 1000n, to: 700n }],
    },
    {
      name: 'an init container that dominates is cut first, then the containers once they dominate',
      pod: pod('p').req({ cpu: '1' }).init('migrate', { cpu: '3' }),
      slot: amounts({ cpu: 800n }),
      want: [
        { place: { in: 'initContainers', container: 'migrate' }, resource: 'cpu', from: 3000n, to: 800n },
        { place: { in: 'containers', container: 'app' }, resource: 'cpu', from: 1000n, to: 800n },
      ],
    },
    {
      name: 'a sidecar larger than every container is the one cut',
      pod: pod('p').req({ cpu: '100m' }).init('proxy', { cpu: '1' }, true),
      slot: amounts({ cpu: 600n }),
      want: [{ place: { in: 'initContainers', container: 'proxy' }, resource: 'cpu', from: 1000n, to: 500n }],
    },
    {
      name: 'pod-level requests replace the containers\' sum, so they are what is cut',
      pod: pod('p').req({ cpu: '100m' }).podLevel({ cpu: '3' }),
      slot: amounts({ cpu: 2000n }),
      want: [{ place: { in: 'pod' }, resource: 'cpu', from: 3000n, to: 2000n }],
    },
    {
      name: 'overhead stays: the container takes the whole cut',
      pod: pod('p').req({ memory: '512Mi' }).overhead({ memory: '128Mi' }),
      slot: amounts({ memory: 600n * Mi }),
      want: [{ place: { in: 'containers', container: 'app' }, resource: 'memory', from: 512n * Mi, to: 472n * Mi }],
    },
  ])('$name', ({ pod: built, slot, want }) => {
    expect(requestChanges(built.obj(), slot)).toEqual(want.map((w) => ({ kind: 'setRequest', cause: 'NodeResourcesFit', ...w })));
  });

  it('gives up when the overhead alone exceeds the slot', () => {
    expect(requestChanges(pod('p').req({ cpu: '100m' }).overhead({ cpu: '1' }).obj(), { cpu: 500n })).toBeUndefined();
  });

  it('is replayed: the slot of the node with the most free, and every node it fits is named', () => {
    const nodes = [node('roomy').obj(), node('tight').obj(), node('full').obj()];
    const pods = [pod('a').req({ cpu: '2500m' }).on('roomy').obj(), pod('b').req({ cpu: '3' }).on('tight').obj(), pod('c').req({ cpu: '4' }).on('full').obj()];
    const fixes = fixesFor(pod('p').req({ cpu: '2' }).obj(), nodes, { pods });
    expect(fixes).toHaveLength(1);
    expect(fixes[0]?.changes).toEqual([{ kind: 'setRequest', cause: 'NodeResourcesFit', place: { in: 'containers', container: 'app' }, resource: 'cpu', from: 2000n, to: 1500n }]);
    // 'tight' (1 cpu free) still fails after the cut; 'full' (none free) was never a slot.
    expect(fixes[0]?.makesFit).toEqual(['roomy']);
    expect(fixes[0]?.stillBlockedBy).toEqual({ tight: ['NodeResourcesFit'], full: ['NodeResourcesFit'] });
  });

  it('between nodes that would cut as much but offer different slots, takes the first by name', () => {
    // 'b' is short 20% of the cpu and 10% of the memory, 'a' 10% and 20%: the same cut, other
    // slots. Listed b first, 'a' decides, as in every order. (Each runs a small pod and has more
    // than the pod asks: a slot that is a whole empty node, or a node too small for the request,
    // is never offered.)
    const nodes = [node('b').allocatable({ cpu: '1100m', memory: '1100Mi' }).obj(), node('a').allocatable({ cpu: '1100m', memory: '1100Mi' }).obj()];
    const small = [pod('sb').req({ cpu: '300m', memory: '200Mi' }).on('b').obj(), pod('sa').req({ cpu: '200m', memory: '300Mi' }).on('a').obj()];
    for (const order of [nodes, [...nodes].reverse()]) {
      const fixes = fixesFor(pod('p').req({ cpu: '1', memory: '1000Mi' }).obj(), order, { pods: small });
      expect(fixes[0]?.changes).toEqual([
        { kind: 'setRequest', cause: 'NodeResourcesFit', place: { in: 'containers', container: 'app' }, resource: 'cpu', from: 1000n, to: 900n },
        { kind: 'setRequest', cause: 'NodeResourcesFit', place: { in: 'containers', container: 'app' }, resource: 'memory', from: 1000n * Mi, to: 800n * Mi },
      ]);
      expect(fixes[0]?.makesFit).toEqual(['a']);
    }
  });

  it('does not lower what a person cannot set in the pod: too many pods', () => {
    const fixes = fixesFor(pod('p').obj(), [node('n').allocatable({ pods: '1' }).obj()], { pods: [pod('a').on('n').obj()] });
    expect(fixes).toEqual([]);
  });
});

describe('the share of a request a node would cut', () => {
  const exact = (short: bigint, requested: bigint) => Number((short * 1_000_000n) / requested);
  it('is the bigint quotient, in floating point or not, for every short amount below the request', () => {
    const request = fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), fc.bigInt({ min: 1n, max: 1_000_000_000n }), fc.bigInt({ min: 999_000_000n, max: 1_000_000_000n }), fc.bigInt({ min: 1n, max: 10n ** 15n }));
    fc.assert(
      fc.property(request, fc.double({ min: 0, max: 1, noNaN: true }), (requested, at) => {
        const short = BigInt(Math.floor(Number(requested - 1n) * at));
        expect(cutOf(short, requested)).toBe(exact(short, requested));
      }),
      { numRuns: 20_000 },
    );
  });
  it('at the edges: just below a whole millionth, the largest request done in floating point, and requests above it where a double rounds up', () => {
    const edges = [[999_999_999n, 1_000_000_000n], [333_333_333n, 999_999_999n], [1n, 1_000_000_000n], [1n, 3n], [2n, 3n], [22_531_336_682n, 39_031_049_206n], [643_626_051_923n, 693_398_172_764n]] as const;
    for (const [short, requested] of edges) {
      expect(cutOf(short, requested)).toBe(exact(short, requested));
    }
  });
});
