// The character-by-character part: each distinct near miss once, with the nodes it applies
// to, the two strings aligned and a marker under every differing character.
import type { Diagnosis } from '../../engine/diagnosis.js';
import { formatTaint, formatToleration } from '../../engine/match/tolerations.js';
import type { TextDiff } from '../../engine/nearmiss/index.js';
import type { SelectorEntryMiss } from '../../engine/rules/NodeAffinity.js';
import type { NearestToleration } from '../../engine/match/nearestToleration.js';
import type { V1Taint } from '@kubernetes/client-node';
import { isNearToleration } from '../../engine/match/nearestToleration.js';
import { explainDiff } from '../../messages/nearmiss.js';
import { closestTerm } from '../../messages/rules/NodeAffinity.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';
import { renderAligned } from './aligned.js';

interface Block {
  title: string;
  lines: string[];
  nodes: string[];
}

// renderAligned already shows every control and invisible character as ⟨U+XXXX⟩ and adds only
// its own colours, so its lines are not escaped again (that would show the colours as text).
// The field's name is a line of its own only where a block compares two fields; alone, the
// block's title already says which one differs.
function diffLines(label: string | undefined, diff: TextDiff, colors: Palette, other: 'node' | 'device' = 'node'): string[] {
  const [wanted = '', actual = '', marks = ''] = renderAligned(diff, colors);
  // The two sides aligned: "pod:" and "node:", or "request:" and "device:".
  const [mine, theirs] = other === 'node' ? ['pod:  ', 'node: '] : ['request: ', 'device:  '];
  const pad = ' '.repeat(mine.length);
  return [
    ...(label ? [`    ${label}`] : []),
    `      ${mine}${wanted}`,
    `      ${theirs}${actual}`,
    `      ${pad}${marks}`,
    ...explainDiff(diff, other === 'node' ? undefined : { wanted: 'request', actual: 'device' }).map((e) => escapeTerminal(`      - ${e}`)),
  ];
}

function selectorBlock(miss: SelectorEntryMiss, source: string, colors: Palette): Omit<Block, 'nodes'> | undefined {
  const closest = miss.closest;
  if (!closest) return undefined;
  const wanted = miss.wanted.length === 1 ? `${miss.key}=${miss.wanted[0] ?? ''}` : `${miss.key} ${miss.operator} (${miss.wanted.join(', ')})`;
  const lines: string[] = [];
  const keyDiffers = !closest.keyDiff.equal;
  const valueDiffers = closest.valueDiff !== undefined && !closest.valueDiff.equal;
  const both = keyDiffers && valueDiffers;
  if (keyDiffers) lines.push(...diffLines(both ? 'label key' : undefined, closest.keyDiff, colors));
  if (closest.valueDiff && valueDiffers) lines.push(...diffLines(both ? 'label value' : undefined, closest.valueDiff, colors));
  if (lines.length === 0) return undefined;
  return { title: `${source} wants ${wanted}; node has ${closest.key}=${closest.value}`, lines };
}

/** Whether the near-miss block of this entry tells the whole of it (a block exists and differs). */
function wholeNearMiss(miss: SelectorEntryMiss): boolean {
  const c = miss.closest;
  return c !== undefined && (!c.keyDiff.equal || (c.valueDiff !== undefined && !c.valueDiff.equal));
}

type Detail = Diagnosis['nodes'][number]['reasons'][number]['detail'];

/**
 * Whether "Near misses" tells everything this reason says, so the Reasons section need not
 * repeat it: a taint nearly tolerated (without other tolerations compared against it), or a
 * selector or a lone affinity term whose every unmet entry is a near miss.
 */
export function toldAsNearMiss(detail: Detail): boolean {
  if (detail.kind === 'untoleratedTaint') return detail.nearest !== undefined && isNearToleration(detail.nearest) && !detail.comparisons;
  if (detail.kind === 'nodeSelectorMismatch') return detail.misses.length > 0 && detail.misses.every(wholeNearMiss);
  if (detail.kind === 'requiredAffinityMismatch') {
    const [only, ...more] = detail.terms;
    return only !== undefined && more.length === 0 && only.misses.length > 0 && only.misses.every(wholeNearMiss);
  }
  return false;
}

/** How the nearest toleration misses a taint: each field, character by character where it is text. */
function tolerationLines(near: NearestToleration, tainted: 'node' | 'device', colors: Palette): string[] {
  return near.mismatches.flatMap((m) => {
    if (m.field === 'key' || m.field === 'value') {
      const extra = m.field === 'value' && m.taintHasNoValue ? ['      - the taint has no value: use operator Exists, or remove the value'] : [];
      const label = near.mismatches.length > 1 ? `toleration ${m.field}` : undefined;
      return m.diff ? [...diffLines(label, m.diff, colors, tainted), ...extra] : extra;
    }
    if (m.field === 'effect') {
      const why = m.preferNoScheduleAgainstNoSchedule ? ' (PreferNoSchedule tolerates only PreferNoSchedule taints)' : '';
      return [escapeTerminal(`    effect: ${tainted === 'node' ? 'pod' : 'request'} ${m.wanted}, ${tainted} ${m.actual}${why}`)];
    }
    return [escapeTerminal(`    operator: ${m.wanted} (${m.actual} expected)`)];
  });
}

interface Entry {
  key: string;
  make: () => Omit<Block, 'nodes'> | undefined;
}

/** The near-miss blocks a reason's detail belongs to, each with the key that groups its nodes. */
function entriesOf(detail: Detail, colors: Palette): Entry[] {
  const entries: Entry[] = [];
  // Character detail only where some field is a near miss; a different value is told in Reasons.
  if (detail.kind === 'untoleratedTaint' && detail.nearest && isNearToleration(detail.nearest)) {
    const near = detail.nearest;
    entries.push({
      key: `taint|${formatTaint(detail.taint)}|${near.index}`,
      make: () => ({ title: `taint ${formatTaint(detail.taint)} vs the pod's toleration #${near.index + 1} ${formatToleration(near.toleration)}`, lines: tolerationLines(near, 'node', colors) }),
    });
  }
  // A device's taint against the nearest toleration of the claim's request (DRA).
  if (detail.kind === 'devicesShort') {
    for (const r of detail.requests) {
      for (const t of r.tainted ?? []) {
        const near = t.nearest;
        if (!near) continue;
        const taint = formatTaint(t.taint as V1Taint);
        entries.push({
          key: `deviceTaint|${detail.claim}|${r.request}|${taint}|${near.index}`,
          make: () => ({ title: `device taint ${taint} vs request ${r.request}'s toleration #${near.index + 1} ${formatToleration(near.toleration)}`, lines: tolerationLines(near, 'device', colors) }),
        });
      }
    }
  }
  if (detail.kind === 'nodeSelectorMismatch' || detail.kind === 'requiredAffinityMismatch') {
    // A node is compared with its closest term only (terms are ORed).
    const term = detail.kind === 'requiredAffinityMismatch' ? closestTerm(detail.terms) : undefined;
    const misses = detail.kind === 'nodeSelectorMismatch' ? detail.misses.map((m) => ({ m, source: 'nodeSelector' })) : (term?.misses ?? []).map((m) => ({ m, source: `affinity term ${(term?.index ?? 0) + 1}` }));
    for (const { m, source } of misses) {
      entries.push({ key: `label|${source}|${m.key}|${m.wanted.join(',')}|${m.closest?.key ?? ''}=${m.closest?.value ?? ''}`, make: () => selectorBlock(m, source, colors) });
    }
  }
  return entries;
}

export function nearMisses(d: Diagnosis, colors: Palette): string[] {
  const blocks = new Map<string, Block>();
  const add = (key: string, node: string, make: () => Omit<Block, 'nodes'> | undefined) => {
    const existing = blocks.get(key);
    if (existing) return void existing.nodes.push(node);
    const made = make();
    if (made) blocks.set(key, { ...made, nodes: [node] });
  };
  // A spec.nodeName no node has, against the node names it nearly is: before the reasons' blocks.
  const stage = d.stageDetail;
  if (stage.stage === 'NodeNameSet') {
    for (const near of stage.nearNodes ?? []) {
      add(`nodeName|${near.name}`, near.name, () => ({ title: `spec.nodeName ${stage.nodeName}, which no node has, vs the node's name`, lines: diffLines(undefined, near.diff, colors) }));
    }
  }
  // Each detail's blocks worked out once: nodes of one class share their details.
  const known = new Map<Detail, Entry[]>();
  for (const node of d.nodes) {
    for (const reason of node.reasons) {
      let entries = known.get(reason.detail);
      if (!entries) known.set(reason.detail, (entries = entriesOf(reason.detail, colors)));
      for (const { key, make } of entries) add(key, node.name, make);
    }
  }
  if (blocks.size === 0) return [];
  const out = [colors.bold('Near misses')];
  for (const block of blocks.values()) {
    const nodes = block.nodes.length > 5 ? `${block.nodes.slice(0, 5).join(', ')} and ${block.nodes.length - 5} more` : block.nodes.join(', ');
    out.push(escapeTerminal(`  ${block.title}  [${nodes}]`), ...block.lines);
  }
  return out;
}
