// English for every structured reason. The table is checked complete by the compiler.
import type { ReasonDetail, ReasonKind } from '../engine/reasons.js';
import { messages as core } from './rules/core.js';
import { messages as dynamicResources } from './rules/DynamicResources.js';
import { messages as interPodAffinity } from './rules/InterPodAffinity.js';
import { messages as nodeVolumeLimits } from './rules/NodeVolumeLimits.js';
import { messages as podTopologySpread } from './rules/PodTopologySpread.js';
import { messages as volumeBinding } from './rules/VolumeBinding.js';
import { messages as volumeRestrictions } from './rules/VolumeRestrictions.js';
import { messages as volumeZone } from './rules/VolumeZone.js';
import type { MessageTable } from './types.js';

const table: MessageTable<ReasonKind> = {
  ...core,
  ...volumeRestrictions,
  ...nodeVolumeLimits,
  ...volumeBinding,
  ...volumeZone,
  ...podTopologySpread,
  ...interPodAffinity,
  ...dynamicResources,
};

export function describeReason(detail: ReasonDetail): string {
  const render = table[detail.kind] as (d: ReasonDetail) => string;
  return render(detail);
}
