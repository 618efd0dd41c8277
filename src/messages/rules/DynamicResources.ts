// Messages for DynamicResources.
import { quote } from '../format.js';
import type { MessageTable } from '../types.js';

export const messages: MessageTable<'resourceClaimNotCreated' | 'resourceClaimSourceMissing'> = {
  resourceClaimNotCreated: (d) =>
    `ResourceClaim for ${quote(d.podClaim)} (template ${quote(d.template)}) not created yet: the pod's status names no claim for it, so the scheduler holds ${d.pod} back`,
  resourceClaimSourceMissing: (d) => `resource claim ${quote(d.podClaim)} of ${d.pod} names neither a ResourceClaim nor a ResourceClaimTemplate`,
};
