import { describe, expect, it } from 'vitest';
import { podFacts } from '../../../src/engine/facts.js';
import type { NotEvaluated, Reason } from '../../../src/engine/model.js';
import rule, { type DynamicResourcesDetail, type ResolvedResourceClaim } from '../../../src/engine/rules/DynamicResources.js';
import { node, pod, type PodBuilder } from '../../support/builders.js';
import { resourceClaim, resourceClaimStatus } from '../../support/volume-builders.js';
import { evaluate } from '../../support/rules.js';

const unresolvable = (detail: DynamicResourcesDetail): Reason => ({ plugin: 'DynamicResources', code: 'UnschedulableAndUnresolvable', detail });
const notChecked = (...claims: ResolvedResourceClaim[]): NotEvaluated => ({ kind: 'resourceClaims', claims });

interface Case {
  name: string;
  pod: PodBuilder;
  preFilter?: Reason[];
  /** The rule says it does not evaluate the pod: "not checked" on every node, never a pass. */
  notEvaluated?: NotEvaluated;
}

const cases: Case[] = [
  { name: 'a pod without resource claims passes', pod: pod('p') },
  {
    name: 'a claim named directly cannot be checked and says so on every node',
    pod: pod('p').with(resourceClaim('gpu', { claim: 'shared-gpu' })),
    notEvaluated: notChecked({ podClaim: 'gpu', claim: 'shared-gpu' }),
  },
  {
    name: 'a claim generated from a template is found through the pod status',
    pod: pod('p').with(resourceClaim('gpu', { template: 'one-gpu' })).with(resourceClaimStatus('gpu', 'p-gpu-x7k2')),
    notEvaluated: notChecked({ podClaim: 'gpu', claim: 'p-gpu-x7k2', template: 'one-gpu' }),
  },
  {
    name: 'a template claim not created yet fails the pod before any node',
    pod: pod('p', 'ml').with(resourceClaim('gpu', { template: 'one-gpu' })),
    preFilter: [unresolvable({ kind: 'resourceClaimNotCreated', pod: 'ml/p', podClaim: 'gpu', template: 'one-gpu' })],
  },
  {
    name: 'the first claim that cannot be named decides, in spec order',
    pod: pod('p').with(resourceClaim('nic', { claim: 'nic-1' })).with(resourceClaim('gpu', { template: 'one-gpu' })),
    preFilter: [unresolvable({ kind: 'resourceClaimNotCreated', pod: 'default/p', podClaim: 'gpu', template: 'one-gpu' })],
  },
  {
    name: 'a status entry without a claim name means no claim is needed',
    pod: pod('p').with(resourceClaim('gpu', { template: 'maybe-gpu' })).with(resourceClaimStatus('gpu')),
  },
  {
    name: 'an entry naming neither a claim nor a template fails the pod',
    pod: pod('p').with(resourceClaim('gpu', {})),
    preFilter: [unresolvable({ kind: 'resourceClaimSourceMissing', pod: 'default/p', podClaim: 'gpu' })],
  },
];

describe('DynamicResources', () => {
  it.each(cases)('$name', (c) => {
    const target = c.pod.obj();
    const outcome = evaluate(rule, target, [node('n1').obj(), node('n2').obj()]);
    expect(outcome).toEqual({ preFilter: c.preFilter ? { reasons: c.preFilter } : {}, nodes: { n1: [], n2: [] } });
    expect(rule.notEvaluated?.(podFacts(target))).toEqual(c.notEvaluated);
  });
});
