// NodeVolumeLimits: what it checks, its messages and short forms, and the scheduler's wordings.
import rule, { type NewVolume } from '../../engine/rules/NodeVolumeLimits.js';
import { filterWording } from '../../engine/scheduler-message/catalog.js';
import { list, plural, quote } from '../format.js';
import { plugin, verb } from '../plugin.js';

function volumeName(v: NewVolume): string {
  return v.claim !== undefined ? `claim ${quote(v.claim)}` : `volume ${quote(v.volume)}`;
}

export default plugin(rule, {
  purpose: "the node's CSI volume attach limit would be exceeded",
  wordings: [
    // nodevolumelimits/csi.go (and the retired non-CSI limits) ErrReasonMaxVolumeCountExceeded.
    filterWording(/^node\(s\) exceed max volume count$/, 'Unschedulable', 'all'),
    // csi.go with VolumeLimitScaling (alpha v1.35, beta and on by default v1.37): a CSIDriver with
    // spec.preventPodSchedulingIfMissing whose driver the node's CSINode does not list. The
    // driver's name comes first ("%s CSI driver is not installed on the node", as the e2e test
    // test/e2e/storage/... waits for it). No code here: not confirmed from csi.go itself.
    filterWording(/^(?<driver>\S+) CSI driver is not installed on the node$/, undefined, 'v1.35+ (VolumeLimitScaling; on by default from v1.37)'),
  ],
  messages: {
    csiVolumeLimitExceeded: (d) =>
      `too many ${d.driver} volumes: the node attaches at most ${d.limit}, ${d.attached} already attached, the pod adds ${d.adding.length} (${list(d.adding.map(volumeName))}); ` +
      `${plural(d.attached + d.adding.length - d.limit, 'volume')} over the limit`,
  },
  short: {
    csiVolumeLimitExceeded: (d) => `volume limit ${d.limit}`,
  },
  headline: {
    csiVolumeLimitExceeded: {
      key: (d) => d.driver,
      says: (n, [d]) => ({ text: `${verb(n, 'has', 'have')} no room for another ${d?.driver ?? ''} volume (limit ${d?.limit ?? ''} per node)` }),
    },
  },
});
