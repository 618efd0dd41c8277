// Messages for DynamicResources.
import { quote } from '../format.js';
import type { MessageTable } from '../types.js';

export const messages: MessageTable<'resourceClaimNotCreated' | 'resourceClaimSourceMissing' | 'resourceClaimsNotChecked'> = {
  resourceClaimNotCreated: (d) =>
    `ResourceClaim for ${quote(d.podClaim)} (template ${quote(d.template)}) not created yet: the pod's status names no claim for it, so the scheduler holds ${d.pod} back`,
  resourceClaimSourceMissing: (d) => `resource claim ${quote(d.podClaim)} of ${d.pod} names neither a ResourceClaim nor a ResourceClaimTemplate`,
  resourceClaimsNotChecked: (d) =>
    `not checked: the pod uses ResourceClaims (${d.claims.map((c) => `${c.podClaim} → ${c.claim}`).join(', ')}), but ResourceClaims and ResourceSlices are not read yet, so whether this node can satisfy them is unknown`,
};
