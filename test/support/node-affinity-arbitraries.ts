// Pods with nodeSelectors and required node-affinity terms, and nodes' labels, drawn from keys
// and values that are near misses of each other (case, a space, a typo) and integers: for
// properties of NodeAffinity and of the fixes that follow its reasons.
import fc from 'fast-check';
import type { V1Node, V1NodeSelectorRequirement, V1Pod } from '@kubernetes/client-node';
import { node, pod } from './builders.js';

const keys = ['zone', 'Zone', 'zone ', 'disktype', 'disk-type', 'gpu', 'cores'];
const values = ['a', 'A', 'b', 'ssd', 'SSD', 'sdd', '8', '16', ''];

const requirement: fc.Arbitrary<V1NodeSelectorRequirement> = fc.oneof(
  fc.record({ key: fc.constantFrom(...keys), operator: fc.constantFrom('In', 'NotIn'), values: fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: 2 }) }),
  fc.record({ key: fc.constantFrom(...keys), operator: fc.constantFrom('Exists', 'DoesNotExist') }),
  fc.record({ key: fc.constantFrom(...keys), operator: fc.constantFrom('Gt', 'Lt'), values: fc.constantFrom('8', 'x').map((v) => [v]) }),
);

/** A pod with up to two nodeSelector entries and up to two required terms. */
export const selectingPod: fc.Arbitrary<V1Pod> = fc
  .record({
    selector: fc.dictionary(fc.constantFrom(...keys), fc.constantFrom(...values), { maxKeys: 2 }),
    terms: fc.array(fc.array(requirement, { minLength: 1, maxLength: 3 }), { maxLength: 2 }),
  })
  .map(({ selector, terms }) => {
    const p = pod('p');
    if (Object.keys(selector).length > 0) p.nodeSelector(selector);
    for (const term of terms) p.affinityTerm(...term);
    return p.obj();
  });

/** Up to 12 nodes, each with a hostname of its own (as real nodes have) and up to four labels of the pool. */
export const labelledNodes: fc.Arbitrary<V1Node[]> = fc
  .array(fc.dictionary(fc.constantFrom(...keys), fc.constantFrom(...values), { maxKeys: 4 }), { minLength: 1, maxLength: 12 })
  .map((labelSets) => labelSets.map((labels, i) => node(`n${i}`).labels({ ...labels, 'kubernetes.io/hostname': `n${i}` }).obj()));
