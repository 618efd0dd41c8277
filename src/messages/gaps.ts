// What the input lacked, what that left unchecked, and how to capture it: said plainly, never
// assumed away. Commands are the exact kubectl reads that would fill each gap.
import type { NotChecked } from '../engine/judge.js';
import { apiResources, type CollectionName, type Gap } from '../snapshot/types.js';
import { list, plural } from './format.js';

/** The one kubectl command that captures every collection named, into a dump to add. */
function captureCommand(collections: readonly CollectionName[]): string {
  const unique = [...new Set(collections)];
  // A collection of one object is captured by name, never with every object of its kind.
  const single = unique.flatMap((c) => {
    const only = apiResources[c].only;
    return only ? [`kubectl get ${apiResources[c].plural} -n ${only.namespace} --field-selector metadata.name=${only.name} -o yaml`] : [];
  });
  const listed = unique.filter((c) => !apiResources[c].only);
  const names = listed.map((c) => apiResources[c].plural).join(',');
  const all = listed.some((c) => apiResources[c].namespaced) ? ' -A' : '';
  return [...(listed.length > 0 ? [`kubectl get ${names}${all} -o yaml`] : []), ...single].join(' and ');
}

/** How a gap names what is missing: the plural, or the one object of a single-object collection. */
function gapSubject(collection: CollectionName): string {
  const r = apiResources[collection];
  return collection === 'clusterAutoscalerStatus' && r.only ? `cluster-autoscaler status ConfigMap (${r.only.namespace}/${r.only.name})` : r.plural;
}

export function describeGap(gap: Gap): string {
  switch (gap.cause) {
    case 'absentFromDump':
      return `the input has no ${gapSubject(gap.collection)}`;
    case 'onlyTarget':
      return 'the input holds no pod but this one, so what already runs on the nodes is unknown';
    case 'forbidden':
      if (gap.collection === 'clusterAutoscalerStatus') {
        return `cannot read cluster-autoscaler's status (configmap ${apiResources.clusterAutoscalerStatus.only?.namespace ?? ''}/${apiResources.clusterAutoscalerStatus.only?.name ?? ''}): forbidden; needs "${gap.permission.verb} ${gap.permission.resource}" in ${gap.permission.scope} (see the README's Permissions section)`;
      }
      return `${apiResources[gap.collection].plural}: forbidden; needs "${gap.permission.verb} ${gap.permission.resource}" ${gap.permission.scope === 'cluster' ? 'at cluster scope' : `in ${gap.permission.scope}`} (see the README's Permissions section)`;
    case 'error':
      return `${gapSubject(gap.collection)}: ${gap.detail}`;
  }
}

/** How to fill the gaps of a dump; forbidden and failed reads are filled by access, not a command. */
export function captureHint(gaps: readonly Gap[]): string | undefined {
  const missing = gaps.filter((g) => g.cause === 'absentFromDump' || g.cause === 'onlyTarget').map((g) => g.collection);
  return missing.length > 0 ? `capture ${missing.length === 1 ? 'it' : 'them'} with: ${captureCommand(missing)}` : undefined;
}

export function describeNotChecked(n: NotChecked): string {
  if (n.cause === 'notModelled') {
    const claims = n.claims.map((c) => (c.claim === c.podClaim ? c.claim : `${c.podClaim} → ${c.claim}`));
    return `${n.plugin}: the pod uses ResourceClaims (${list(claims)}); ResourceClaims and ResourceSlices are not evaluated yet, so no node is proven to have the devices`;
  }
  if (n.cause === 'notModelledOnNodes') {
    const on = `on ${plural(n.nodes.length, 'node')} ${list(n.nodes)}`;
    if (n.kind === 'selectorNotEvaluable') return `${n.plugin}: ${on}, the CEL selector \`${n.expression}\` uses what the CEL library cannot evaluate (${n.error}), so those nodes are not proven`;
    if (n.kind === 'namespaceLabelsUnread') {
      return `${n.plugin}: ${on}, a pod already there has required anti-affinity matching this pod's labels in namespaces selected by ${list(n.namespaceSelectors.map((s) => `"${s}"`))}; namespace ${n.namespace} could not be read, so whether it is selected is unknown and those nodes are not proven`;
    }
    if (n.kind === 'extendedResourceDevicesUnread') {
      return `${n.plugin}: ${on}, a DeviceClass serves ${list(n.resources)}, which those nodes list none of, so their devices decide; ${list(n.collections.map((c) => apiResources[c].plural))} could not be read, so those nodes are not proven`;
    }
    return `${n.plugin}: ${on}, the allocation needs ${n.feature}, which why-pending does not model, so those nodes are not proven`;
  }
  return `${n.plugin}: needs ${list(n.collections.map((c) => apiResources[c].plural))}, which the input lacks`;
}

/** A short clause for the headline: which plugins could not be checked. */
export function notCheckedClause(notChecked: readonly NotChecked[]): string {
  return `not checked: ${list(notChecked.map((n) => n.plugin))}`;
}
