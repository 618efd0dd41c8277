// VolumeBinding: what it checks, its messages and short forms, and the scheduler's wordings.
import { formatRequirement } from '../../engine/match/nodeSelector.js';
import rule, { type ImmediateCause, type TermMiss, type UnbindableClaim, type VolumeRejection } from '../../engine/rules/VolumeBinding.js';
import { filterWording, preFilterWording, quotedClaim } from '../../engine/scheduler-message/catalog.js';
import { list, plural, quote } from '../format.js';
import { plugin, verb } from '../plugin.js';
import { podPinClause, provisioningCause, provisioningClause } from '../volumeStory.js';

function termText(t: TermMiss): string {
  const unmet = t.unmet.map((u) => {
    const wanted = formatRequirement({ key: u.key, operator: u.operator, values: u.values });
    if (u.source === 'field') return `${u.key} ${u.operator} (${u.values.join(', ')}): a PV's node affinity cannot select by field`;
    const node = u.nodeValue === undefined ? `${wanted}, node has no ${u.key} label` : `${wanted}, node has ${u.key}=${u.nodeValue}`;
    return `${node}${podPinClause(u.podPin)}`;
  });
  return `term ${t.index + 1}: ${unmet.length > 0 ? unmet.join('; ') : 'an empty term matches no node'}`;
}

const immediateWords: Record<ImmediateCause, (c: { storageClass: string; volumeName?: string }) => string> = {
  immediateMode: (c) => `StorageClass ${quote(c.storageClass)} binds immediately and no PV has been bound yet`,
  noStorageClass: () => 'it names no StorageClass, so it waits for the PV controller to bind a matching PV',
  storageClassNotFound: (c) => `its StorageClass ${quote(c.storageClass)} does not exist, so it is treated as Immediate`,
  bindingInProgress: (c) => `it names PV ${quote(c.volumeName ?? '')} but the binding is not complete`,
};

function rejectionText(r: VolumeRejection): string {
  switch (r.why) {
    case 'chosenForAnotherClaim':
      return 'taken by another claim of this pod';
    case 'boundToOtherClaim':
      return `bound to ${r.claimRef}`;
    case 'tooSmall':
      return `${r.capacity} < ${r.requested}`;
    case 'volumeModeMismatch':
      return `volumeMode ${r.volumeMode}, claim wants ${r.requested}`;
    case 'beingDeleted':
      return 'being deleted';
    case 'notAvailable':
      return `phase ${r.phase || '<none>'}, not Available`;
    case 'selectorMismatch':
      return "labels do not match the claim's selector";
    case 'volumeAttributesClassMismatch':
      return `VolumeAttributesClass ${quote(r.volumeClass)}, claim wants ${quote(r.requested)}`;
    case 'nodeAffinityMismatch':
      return r.prebound ? "pre-bound to this claim, but its node affinity excludes this node" : 'node affinity excludes this node';
    case 'accessModesMismatch':
      return `access modes ${r.volumeModes.join(', ') || '<none>'}, claim wants ${r.requested.join(', ')}`;
  }
}

function unbindableText(c: UnbindableClaim): string {
  const head = `claim ${quote(c.claim)} (StorageClass ${quote(c.storageClass)})`;
  if (c.cause.why === 'selectedNodeElsewhere') return `${head} is already being provisioned for node ${quote(c.cause.selectedNode)}`;
  const shown = c.candidates.slice(0, 5).map((p) => `${p.pv}: ${rejectionText(p.rejected)}`);
  const more = c.candidates.length > shown.length ? `, and ${plural(c.candidates.length - shown.length, 'more PV')}` : '';
  const pvs = c.candidates.length === 0 ? 'no PV of that class exists' : `no PV fits (${shown.join('; ')}${more})`;
  const provision =
    c.cause.why === 'noProvisioner'
      ? c.cause.provisioner
        ? `the class cannot provision one (provisioner ${c.cause.provisioner})`
        : 'the class names no provisioner'
      : `the class provisions only in ${c.cause.allowedTopologies.map((t) => `(${t})`).join(' or ')}, which excludes this node`;
  return `${head}: ${pvs}, and ${provision}`;
}

export default plugin(rule, {
  purpose: "a claim's volume cannot be bound or used on the node (PV node affinity, no matching PV)",
  wordings: [
    // volumebinding/binder.go ConflictReasons (a node can get several) and volume_binding.go
    // PreFilter / podHasPVCs. ErrReasonNodeConflict was renamed by PR #129887.
    filterWording(/^node\(s\) didn't find available persistent volumes to bind$/, 'UnschedulableAndUnresolvable', 'all'),
    filterWording(/^node\(s\) didn't match PersistentVolume's node affinity$/, 'UnschedulableAndUnresolvable', 'v1.33+'),
    filterWording(/^node\(s\) had volume node affinity conflict$/, 'UnschedulableAndUnresolvable', '<= v1.32'),
    filterWording(/^node\(s\) did not have enough free storage$/, 'UnschedulableAndUnresolvable', 'v1.19+'),
    filterWording(/^node\(s\) unavailable due to one or more pvc\(s\) bound to non-existent pv\(s\)$/, 'UnschedulableAndUnresolvable', 'v1.21+'),
    preFilterWording(/^pod has unbound immediate PersistentVolumeClaims$/, 'all'),
    preFilterWording(new RegExp(`^persistentvolumeclaim ${quotedClaim} is being deleted$`), 'all'),
    preFilterWording(new RegExp(`^persistentvolumeclaim ${quotedClaim} bound to non-existent persistentvolume "(?<volume>[^"]*)"$`), 'v1.2x+'),
    preFilterWording(new RegExp(`^waiting for ephemeral volume controller to create the persistentvolumeclaim ${quotedClaim}$`), 'v1.22+'),
    preFilterWording(new RegExp(`^persistentvolumeclaim ${quotedClaim} was not created for the pod$`), 'v1.19-v1.2x'),
  ],
  messages: {
    bindingClaimNotFound: (d) =>
      d.ephemeral
        ? `waiting for the ephemeral volume controller to create PersistentVolumeClaim ${quote(d.claim)}`
        : `PersistentVolumeClaim ${quote(d.claim)} does not exist in the pod's namespace`,
    bindingClaimLost: (d) => `PersistentVolumeClaim ${quote(d.claim)} is Lost: its PV ${quote(d.volume)} no longer exists`,
    bindingClaimBeingDeleted: (d) => `PersistentVolumeClaim ${quote(d.claim)} is being deleted`,
    ephemeralClaimNotForPod: (d) => `PersistentVolumeClaim ${quote(d.claim)} has the ephemeral volume's name but was not created for pod ${d.pod} (the pod is not its owner)`,
    unboundImmediateClaims: (d) =>
      `unbound PersistentVolumeClaims that must be bound before scheduling: ${d.claims.map((c) => `${quote(c.claim)}: ${immediateWords[c.cause](c)}${provisioningClause(c)}`).join('; ')}`,
    localVolumesNoCommonNode: (d) =>
      `the pod's local PVs are pinned to different nodes, no node has them all: ${d.volumes.map((v) => `PV ${quote(v.pv)} (claim ${quote(v.claim)}) on ${list(v.nodes)}`).join('; ')}`,
    outsideLocalVolumeNodes: (d) =>
      `not one of the nodes the pod's local PVs are pinned to (${d.nodes.join(', ')}; ${d.volumes.map((v) => `PV ${quote(v.pv)}`).join(', ')})`,
    volumeNodeAffinityConflict: (d) => `PV ${quote(d.pv)} (claim ${quote(d.claim)}) node affinity: ${d.terms.map(termText).join(' | ')}`,
    noAvailableVolumeToBind: (d) =>
      `no volume can be bound on this node: ${d.claims.map(unbindableText).join('; ')} (WaitForFirstConsumer: nothing is provisioned until the pod is scheduled to a node that can have it)`,
    boundVolumeMissing: (d) => `claim ${quote(d.claim)} is bound to PV ${quote(d.pv)}, which does not exist`,
  },
  short: {
    bindingClaimNotFound: () => 'claim not found',
    bindingClaimLost: () => 'claim lost',
    bindingClaimBeingDeleted: () => 'claim being deleted',
    ephemeralClaimNotForPod: () => 'claim owned by another',
    unboundImmediateClaims: () => 'claim unbound',
    localVolumesNoCommonNode: () => 'local PVs on different nodes',
    outsideLocalVolumeNodes: () => "not the local PV's node",
    volumeNodeAffinityConflict: (d) => `PV ${d.pv} affinity`,
    noAvailableVolumeToBind: () => 'no PV to bind',
    boundVolumeMissing: () => 'bound PV missing',
  },
  preFilterCause: {
    unboundImmediateClaims: (d) => {
      const [first] = d.claims;
      if (!first) return 'PersistentVolumeClaims are unbound';
      const more = d.claims.length > 1 ? ` (and ${plural(d.claims.length - 1, 'more claim')})` : '';
      return `PVC ${first.claim} is unbound: ${provisioningCause(first)}${more}`;
    },
  },
  headline: {
    noAvailableVolumeToBind: {
      key: (d) => d.claims.map((c) => c.claim).join(','),
      says: (n, [d]) => ({ text: `${verb(n, 'has', 'have')} no PersistentVolume that claim ${d?.claims.map((c) => c.claim).join(', ') ?? ''} can bind and cannot provision one there` }),
    },
    outsideLocalVolumeNodes: {
      key: (d) => d.volumes.map((v) => v.pv).join(','),
      says: (n, [d]) => ({ text: `${verb(n, 'is not', 'are not')} the node of its local PV ${d?.volumes.map((v) => v.pv).join(', ') ?? ''}` }),
    },
    volumeNodeAffinityConflict: {
      key: (d) => d.pv,
      says: (n, [d]) => ({ text: `${verb(n, 'does', 'do')} not match the node affinity of PV ${d?.pv ?? ''} (claim ${d?.claim ?? ''})` }),
    },
  },
});
