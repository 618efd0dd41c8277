// The words of a fix (src/engine/fixes/): one sentence saying what to change and where, the
// YAML to put in the pod template (or the pod) for changes to the pod's spec, and the kubectl
// command for changes made with one (labels, uncordon, deleting the victims preemption picks,
// a container's request). Cluster strings go in as they are; the human reporter escapes them.
import type { V1NodeSelectorRequirement, V1Taint, V1Toleration } from '@kubernetes/client-node';
import { formatMilli } from '../engine/quantity/index.js';
import { Document } from 'yaml';
import { editsPodSpec, type Change, type Fix, type FixCaution, type FixClass, type RequestPlace, type SpecTarget } from '../engine/fixes/index.js';
import { formatRequirement } from '../engine/match/nodeSelector.js';
import { formatTaint, formatToleration } from '../engine/match/tolerations.js';
import { describeCodePoint } from '../engine/nearmiss/index.js';
import { instant } from './bound.js';
import { list, plural, quantitiesAlike, quantity } from './format.js';

export interface FixText {
  change: string;
  yaml?: string;
  command?: string;
}

/**
 * A cluster string as the sentence shows it: a character that would not show (a non-breaking
 * or zero-width space) as ⟨U+00A0⟩, and the whole quoted when it has one or starts or ends
 * with a space, so that the difference the fix makes can be seen.
 */
function shown(text: string): string {
  let odd = text !== text.trim();
  const out = [...text].map((char) => {
    if (char === ' ') return char;
    const info = describeCodePoint(char);
    if (info.visible) return char;
    odd = true;
    return `⟨${info.codePoint}⟩`;
  });
  return odd ? `"${out.join('')}"` : text;
}

function placeText(place: RequestPlace): string {
  if (place.in === 'pod') return 'the pod-level';
  return `${place.in === 'initContainers' ? 'init container' : 'container'} ${place.container}'s`;
}

function nodesText(nodes: readonly string[]): string {
  return nodes.length === 1 ? `node ${nodes[0] ?? ''}` : `${nodes.length} nodes (${list(nodes.slice(0, 3).concat(nodes.length > 3 ? [`${nodes.length - 3} more`] : []))})`;
}

function labelsText(change: Extract<Change, { kind: 'labelNodes' }>): string {
  const respelled = change.overwrite;
  if (respelled && Object.keys(change.set).every((k) => Object.hasOwn(respelled, k))) {
    const pairs = Object.entries(change.set).map(([k, v]) => `${shown(`${k}=${respelled[k] ?? ''}`)} to ${shown(`${k}=${v}`)}`);
    return `relabel ${nodesText(change.nodes)} from ${list(pairs)}, as the pod and the other nodes spell it`;
  }
  const set = Object.entries(change.set).map(([k, v]) => `${k}=${v}`);
  const parts = [...(set.length > 0 ? [`label ${nodesText(change.nodes)} ${list(set)}`] : []), ...(change.remove.length > 0 ? [`remove label ${list(change.remove)} from ${nodesText(change.nodes)}`] : [])];
  return parts.join(' and ');
}

/** `respelling`: a selector change takes the nodes' spelling of what the pod meant (not when its caution says it retargets the pod). */
function changeText(change: Change, respelling = true): string {
  switch (change.kind) {
    case 'tolerateTaint':
      return change.replaces
        ? `replace toleration #${change.replaces.index + 1} (${shown(formatToleration(change.replaces.toleration))}) with one copied from the taint ${shown(formatTaint(change.taint))}`
        : `tolerate the taint ${shown(formatTaint(change.taint))}`;
    case 'tolerateDeviceTaint': {
      const where = `request ${change.request} of ResourceClaim ${change.claim}`;
      const made = `${change.rule !== undefined ? ` (DeviceTaintRule ${change.rule})` : ''}`;
      const what = change.replaces
        ? `in ${where}, replace toleration #${change.replaces.index + 1} (${shown(formatToleration(change.replaces.toleration as V1Toleration))}) with one copied from the device taint ${shown(formatTaint(change.taint as V1Taint))}${made}`
        : `in ${where}, tolerate the device taint ${shown(formatTaint(change.taint as V1Taint))}${made}`;
      // resource.k8s.io refuses edits to a claim's spec: it is made again (a template's claim comes from the template).
      return `${what}; a claim's spec cannot be edited, so make the claim again with the change (for a claim made from a ResourceClaimTemplate, change the template and recreate the pod)`;
    }
    case 'setDeviceCapacity':
      return `in request ${change.request} of ResourceClaim ${change.claim}, lower the ${change.capacity} capacity request from ${formatMilli(change.from)} to ${formatMilli(change.to)}, what the shared device has left; a claim's spec cannot be edited, so make the claim again with the change (for a claim made from a ResourceClaimTemplate, change the template and recreate the pod)`;
    case 'setRequest': {
      const [from = '', to = '', by = ''] = quantitiesAlike(change.resource, [change.from, change.to, change.from - change.to]);
      return `lower ${placeText(change.place)} ${change.resource} request from ${from} to ${to} (by ${by})`;
    }
    case 'setNodeSelector':
      return `change nodeSelector ${shown(`${change.from.key}=${change.from.value}`)} to ${shown(`${change.to.key}=${change.to.value}`)}${respelling ? ', as the nodes spell it' : ''}`;
    case 'setAffinityExpression':
      return `in required node-affinity term ${change.term + 1}, change ${shown(formatRequirement(change.from))} to ${shown(formatRequirement(change.to))}${respelling ? ', as the nodes spell it' : ''}`;
    case 'removeAffinityExpressions':
      return `drop ${list(change.expressions.map((e) => shown(formatRequirement(e.requirement))))} from required node-affinity term ${change.term + 1}`;
    case 'labelNodes':
      return labelsText(change);
    case 'honorTaintsInSpread':
      return `set nodeTaintsPolicy: Honor on topology spread constraint ${change.index + 1} (${change.topologyKey}), so that domains whose nodes all carry taints the pod does not tolerate stop counting`;
    case 'uncordon':
      return `uncordon node ${change.node}`;
    case 'waitForVictims': {
      const victims = change.victims.map((v) => `${v.namespace}/${v.name}${v.since !== undefined ? ` (deleted ${instant(v.since)})` : ''}`);
      return `wait: the pod's own preemption is under way on node ${change.node}, where ${plural(change.victims.length, 'victim')} ${list(victims)} ${change.victims.length === 1 ? 'is' : 'are'} terminating; the scheduler places the pod there once ${change.victims.length === 1 ? 'it is' : 'they are'} gone`;
    }
    case 'waitForScaleUp':
      return `wait: ${change.autoscaler} is adding nodes for the pod${change.targets.length > 0 ? ` (${list(change.targets)})` : ''}${change.since !== undefined ? ` since ${instant(change.since)}` : ''}`;
    case 'preempt': {
      const victims = change.victims.map((v) => `${v.namespace}/${v.name} (priority ${v.priority}${v.budgets ? `, against PodDisruptionBudget ${list(v.budgets)}` : ''}${v.terminating ? ', already terminating' : ''})`);
      return `let preemption remove ${plural(change.victims.length, 'lower-priority pod')} from node ${change.node}: ${list(victims)}`;
    }
  }
}

function whereText(spec: SpecTarget | undefined): string {
  if (!spec) return '';
  if (spec.kind === 'template') return ` (in the pod template of ${spec.owner.kind} ${spec.owner.name})`;
  return ' (the pod has no controller: delete it and create it again with the change)';
}

function caps(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---- YAML: the pod spec fields the change sets, under the template's path ----

function tolerationYaml(toleration: V1Toleration): Record<string, string> {
  // In this order: the way `kubectl explain` and most manifests write a toleration.
  const out: Record<string, string> = {};
  if (toleration.key !== undefined) out['key'] = toleration.key;
  if (toleration.operator !== undefined) out['operator'] = toleration.operator;
  if (toleration.value !== undefined) out['value'] = toleration.value;
  if (toleration.effect !== undefined) out['effect'] = toleration.effect;
  return out;
}

function requirementYaml(r: V1NodeSelectorRequirement): Record<string, unknown> {
  return { key: r.key, operator: r.operator, ...(r.values && r.values.length > 0 ? { values: r.values } : {}) };
}

function podSpecFields(changes: readonly Change[]): Record<string, unknown> | undefined {
  const spec: Record<string, unknown> = {};
  const containers = new Map<string, { in: string; requests: Record<string, string> }>();
  for (const change of changes) {
    switch (change.kind) {
      case 'tolerateTaint':
        spec['tolerations'] = [...((spec['tolerations'] as unknown[] | undefined) ?? []), tolerationYaml(change.toleration)];
        break;
      case 'setRequest': {
        const amount = quantity(change.resource, change.to);
        if (change.place.in === 'pod') {
          const requests = ((spec['resources'] as { requests: Record<string, string> } | undefined) ?? { requests: {} }).requests;
          spec['resources'] = { requests: { ...requests, [change.resource]: amount } };
          break;
        }
        const key = `${change.place.in}/${change.place.container}`;
        const entry = containers.get(key) ?? { in: change.place.in, requests: {} };
        entry.requests[change.resource] = amount;
        containers.set(key, entry);
        break;
      }
      case 'setNodeSelector':
        spec['nodeSelector'] = { ...(spec['nodeSelector'] as Record<string, string> | undefined), [change.to.key]: change.to.value };
        break;
      case 'honorTaintsInSpread':
        // The whole list: a pod template's list is replaced, not merged, by an edit.
        spec['topologySpreadConstraints'] = change.after;
        break;
      case 'setAffinityExpression':
      case 'removeAffinityExpressions': {
        const expressions = change.termAfter;
        spec['affinity'] = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: expressions.map(requirementYaml) }] } } };
        break;
      }
      default:
        break;
    }
  }
  for (const [key, entry] of containers) {
    const list = ((spec[entry.in] as unknown[] | undefined) ?? []).concat([{ name: key.slice(entry.in.length + 1), resources: { requests: entry.requests } }]);
    spec[entry.in] = list;
  }
  return Object.keys(spec).length > 0 ? spec : undefined;
}

/** The claim's request with the change in place, as the claim made again would say it. */
function claimYaml(change: Extract<Change, { kind: 'tolerateDeviceTaint' | 'setDeviceCapacity' }>): string {
  const [name = '', sub] = change.request.split('/');
  const fields = change.kind === 'tolerateDeviceTaint' ? { tolerations: [tolerationYaml(change.toleration as V1Toleration)] } : { capacity: { requests: { [change.capacity]: formatMilli(change.to) } } };
  const request = sub === undefined ? { name, exactly: fields } : { name, firstAvailable: [{ name: sub, ...fields }] };
  const doc = { metadata: { name: change.claim.split('/')[1] ?? '', namespace: change.claim.split('/')[0] ?? '' }, spec: { devices: { requests: [request] } } };
  return new Document(doc).toString({ lineWidth: 0, indentSeq: false, blockQuote: false, doubleQuotedAsJSON: true }).trimEnd();
}

function yamlOf(fix: Fix): string | undefined {
  const device = fix.changes.find((c) => c.kind === 'tolerateDeviceTaint' || c.kind === 'setDeviceCapacity');
  if (device) return claimYaml(device);
  const fields = podSpecFields(fix.changes);
  if (!fields || !fix.spec) return undefined;
  const path = fix.spec.kind === 'template' ? fix.spec.path : ['spec'];
  const nested = [...path].reverse().reduce<Record<string, unknown>>((inner, key) => ({ [key]: inner }), fields);
  // No block scalars: a value with a line break is written "a\nb", one line, as copied exactly.
  return new Document(nested).toString({ lineWidth: 0, indentSeq: false, blockQuote: false, doubleQuotedAsJSON: true }).trimEnd();
}

// ---- Commands ----

/** A word the shell reads as itself; anything else in single quotes. */
function shellWord(word: string): string {
  if (/^[A-Za-z0-9._/=:@%+,-]+$/.test(word)) return word;
  // A control character in single quotes would break the command over lines: bash's $'...'
  // keeps it on one, written as an escape.
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  if (/[\u0000-\u001f\u007f]/.test(word)) {
    // eslint-disable-next-line no-control-regex -- as above
    return `$'${word.replace(/[\\']/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}'`;
  }
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

function command(...words: string[]): string {
  return words.map(shellWord).join(' ');
}

function requestCommand(changes: readonly Change[], spec: SpecTarget | undefined): string[] {
  // `kubectl set resources` edits pod templates; a pod's requests are not edited that way.
  if (spec?.kind !== 'template') return [];
  const byContainer = new Map<string, string[]>();
  for (const c of changes) {
    if (c.kind !== 'setRequest' || c.place.in !== 'containers') continue;
    byContainer.set(c.place.container, [...(byContainer.get(c.place.container) ?? []), `${c.resource}=${quantity(c.resource, c.to)}`]);
  }
  const owner = `${spec.owner.kind.toLowerCase()}/${spec.owner.name}`;
  return [...byContainer].map(([container, requests]) => command('kubectl', 'set', 'resources', owner, '-n', spec.owner.namespace, '-c', container, `--requests=${requests.join(',')}`));
}

function changeCommands(change: Change): string[] {
  switch (change.kind) {
    case 'labelNodes': {
      const labels = [...Object.entries(change.set).map(([k, v]) => `${k}=${v}`), ...change.remove.map((k) => `${k}-`)];
      // Only missing labels are added (label.ts), so no --overwrite: kubectl refuses to change a
      // label without it, which is the safety wanted. A respelling (relabel.ts) is that change.
      return [command('kubectl', 'label', 'node', ...change.nodes, ...labels, ...(change.overwrite ? ['--overwrite'] : []))];
    }
    case 'uncordon':
      return [command('kubectl', 'uncordon', change.node)];
    case 'preempt': {
      const byNamespace = new Map<string, string[]>();
      // A victim already terminating is on its way out: deleting it again does nothing.
      for (const v of change.victims) if (!v.terminating) byNamespace.set(v.namespace, [...(byNamespace.get(v.namespace) ?? []), v.name]);
      return [...byNamespace].map(([namespace, names]) => command('kubectl', 'delete', 'pod', '-n', namespace, ...names));
    }
    default:
      return [];
  }
}

/** Where every change to the pod's spec goes, said once above several fixes that share it. */
export function whereLine(spec: SpecTarget): string {
  return spec.kind === 'template'
    ? `Changes to the pod go into the pod template of ${spec.owner.kind} ${spec.owner.name}.`
    : 'Changes to the pod: it has no controller, so delete it and create it again with the change.';
}

/** `whereSaid`: the place of pod-spec changes was said once above (whereLine), not in each sentence. */
export function fixText(fix: Fix, { whereSaid = false } = {}): FixText {
  // A retargeted selector is not a respelling: its caution says whose spelling it takes.
  const respelling = !fix.cautions?.some((c) => c.kind === 'selectorRetargeted');
  const text = (c: Change) => changeText(c, respelling);
  // The changes to the pod's spec first, with where they go, then those made elsewhere.
  const onPod = fix.changes.filter(editsPodSpec).map(text);
  const elsewhere = fix.changes.filter((c) => !editsPodSpec(c)).map(text);
  const sentences = [...(onPod.length > 0 ? [`${list(onPod)}${whereSaid ? '' : whereText(fix.spec)}`] : []), ...elsewhere];
  let change = `${caps(list(sentences))}.`;
  const preempt = fix.changes.find((c) => c.kind === 'preempt');
  if (preempt) {
    change += preempt.budgetsKnown
      ? ' The scheduler does this itself when it retries the pod.'
      : ' The scheduler does this itself when it retries the pod; PodDisruptionBudgets were not read, so it may pick other victims.';
  }
  const cautions = (fix.cautions ?? []).map(cautionText);
  if (cautions.length > 0) change += ` ${cautions.join(' ')}`;
  const yaml = yamlOf(fix);
  const commands = [...requestCommand(fix.changes, fix.spec), ...fix.changes.flatMap(changeCommands)];
  return { change, ...(yaml ? { yaml } : {}), ...(commands.length > 0 ? { command: commands.join('\n') } : {}) };
}

/** What a person must weigh before making a fix, one sentence each. */
function cautionText(c: FixCaution): string {
  switch (c.kind) {
    case 'taintKeepsOthersOff':
      return `The taint ${shown(c.taint)} keeps other workloads off ${c.nodes.length > 0 ? list(c.nodes.slice(0, 3).concat(c.nodes.length > 3 ? [`${c.nodes.length - 3} more`] : [])) : 'its nodes'}, and this pod never mentioned it: tolerate it only if the pod belongs there.`;
    case 'deviceTaintKeepsOthersOff':
      return `The device taint ${shown(c.taint)}${c.rule !== undefined ? ` (set by DeviceTaintRule ${c.rule})` : ''} keeps claims off those devices (an unhealthy device, one set aside) on ${c.nodes.length > 0 ? list(c.nodes.slice(0, 3).concat(c.nodes.length > 3 ? [`${c.nodes.length - 3} more`] : [])) : 'its nodes'}, and this claim never mentioned it: tolerate it only if the claim may use such a device.`;
    case 'labelStatesFact':
      return `Only if ${list(c.nodes.slice(0, 3).concat(c.nodes.length > 3 ? [`${c.nodes.length - 3} more`] : []))} really ${c.nodes.length === 1 ? 'has' : 'have'} ${list(c.labels.map(shown))}: a label states a fact that other workloads select on.`;
    case 'requirementDropped':
      return `The pod could then run on nodes without ${list(c.requirements.map(shown))}: drop it only if the pod does not need it.`;
    case 'selectorRetargeted':
      return `Other nodes carry ${shown(c.from)} as the pod spells it: this sends the pod to nodes with ${shown(c.to)} instead.`;
    case 'cordoned': {
      const at = c.since !== undefined ? ` at ${instant(c.since)}` : '';
      if (c.by !== undefined) return `${c.node} was cordoned by field manager ${c.by}${at} (a drain, an upgrade, a fault): uncordon it only when that work is done.`;
      return `Someone cordoned ${c.node}${at} (a drain, an upgrade, a fault): uncordon it only when they are done with it.`;
    }
    case 'largeCut': {
      const instead = c.instead ? `freeing ${quantity(c.resource, c.instead.free)} of ${c.resource} on ${c.instead.node} fits the request as it is` : 'the alternative is room on a node, or a larger node';
      return `That cuts the ${c.resource} request by ${c.percent}%: the request says what the workload needs, so this is a capacity decision; ${instead}.`;
    }
    case 'qosChanges':
      return `The pod's QoS class changes from ${c.from} to ${c.to} (its requests no longer equal its limits).`;
  }
}

/** How each class of fix is introduced, safest first. */
export const classHeadings: Record<FixClass, string> = {
  correction: 'Corrections (undo a near miss)',
  wait: 'Already under way',
  capacity: 'Capacity (the pod\'s requests, or room on a node)',
  policy: 'Policy changes (change what the cluster intends: weigh the caution)',
};
