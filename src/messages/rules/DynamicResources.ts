// DynamicResources: what it checks, its messages and short forms, and the scheduler's wordings.
import rule from '../../engine/rules/DynamicResources.js';
import { filterWording, preFilterWording, quotedClaim } from '../../engine/scheduler-message/catalog.js';
import { quote } from '../format.js';
import { plugin } from '../plugin.js';

export default plugin(rule, {
  purpose: 'the node cannot satisfy the pod\'s resource claims (DRA)',
  wordings: [
    // dynamicresources/dynamicresources.go, statusUnschedulable (always UnschedulableAndUnresolvable).
    filterWording(/^cannot allocate all claims$/, 'UnschedulableAndUnresolvable', 'v1.30+ (structured parameters)'),
    filterWording(/^resourceclaim not available on the node$/, 'UnschedulableAndUnresolvable', 'v1.26+'),
    filterWording(/^resourceclaim cannot be allocated for the node \((?:unsuitable|not suitable)\)$/, 'UnschedulableAndUnresolvable', 'v1.26-v1.31 (control-plane controller)'),
    // DRAExtendedResource (alpha v1.34, beta v1.36, GA v1.37): a claim the scheduler made for an
    // extended resource in an earlier cycle; PostFilter deletes it and the pod is retried.
    filterWording(/^cannot schedule extended resource claim$/, 'UnschedulableAndUnresolvable', 'v1.34+ (DRAExtendedResource)'),
    // DRASchedulerFilterTimeout: the allocator ran out of its per-node time (10 s by default).
    filterWording(/^timed out trying to allocate devices$/, 'UnschedulableAndUnresolvable', 'v1.34+ (DRASchedulerFilterTimeout)'),
    preFilterWording(/^resourceclaim in use$/, 'v1.26+'),
    preFilterWording(/^resource claim (?<claim>\S+) is in the process of being allocated$/, 'v1.31+'),
    preFilterWording(/^request (?<request>\S+): device class (?<deviceClass>\S+) does not exist$/, 'v1.31+'),
    preFilterWording(new RegExp(`^resourceclaim(?:\\.resource\\.k8s\\.io)? ${quotedClaim} (?:not found|is being deleted)$`), 'v1.26+'),
  ],
  messages: {
    resourceClaimNotCreated: (d) =>
      `ResourceClaim for ${quote(d.podClaim)} (template ${quote(d.template)}) not created yet: the pod's status names no claim for it, so the scheduler holds ${d.pod} back`,
    resourceClaimSourceMissing: (d) => `resource claim ${quote(d.podClaim)} of ${d.pod} names neither a ResourceClaim nor a ResourceClaimTemplate`,
  },
  short: {
    resourceClaimNotCreated: () => 'claim not created yet',
    resourceClaimSourceMissing: () => 'claim source missing',
  },
});
