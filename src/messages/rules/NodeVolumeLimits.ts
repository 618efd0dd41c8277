// Messages for NodeVolumeLimits.
import type { NewVolume } from '../../engine/rules/NodeVolumeLimits.js';
import { list, plural, quote } from '../format.js';
import type { MessageTable } from '../types.js';

function volumeName(v: NewVolume): string {
  return v.claim !== undefined ? `claim ${quote(v.claim)}` : `volume ${quote(v.volume)}`;
}

export const messages: MessageTable<'csiVolumeLimitExceeded'> = {
  csiVolumeLimitExceeded: (d) =>
    `too many ${d.driver} volumes: the node attaches at most ${d.limit}, ${d.attached} already attached, the pod adds ${d.adding.length} (${list(d.adding.map(volumeName))}); ` +
    `${plural(d.attached + d.adding.length - d.limit, 'volume')} over the limit`,
};
