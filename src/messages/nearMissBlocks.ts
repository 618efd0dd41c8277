// What a plugin's descriptor says under "Near misses" (its `nearMisses` table): blocks of data,
// each a title and lines that are either two strings compared character by character or a
// sentence; the reporters draw them (report/human/nearMisses.ts). The builders shared by the
// plugins that compare a toleration with a taint (TaintToleration, DynamicResources' device
// taints) and a selector entry with a label (NodeAffinity) live here.
import type { NearestToleration } from '../engine/match/nearestToleration.js';
import type { TextDiff } from '../engine/nearmiss/index.js';
import type { SelectorEntryMiss } from '../engine/rules/NodeAffinity.js';

export type NearMissLine =
  /** Two strings aligned, `wanted` over `actual`; `label` names the field where a block compares two. */
  | { diff: TextDiff; label?: string; sides?: 'node' | 'device' }
  /** A field that is not text (an effect, an operator), in a sentence. */
  | { note: string }
  /** A hint under the comparison above it. */
  | { hint: string };

export interface NearMissBlock {
  /** What makes two nodes' blocks the same block (their names are then listed together). */
  key: string;
  title: string;
  lines: NearMissLine[];
}

/** How the nearest toleration misses a taint: each field, character by character where it is text. */
export function tolerationLines(near: NearestToleration, tainted: 'node' | 'device'): NearMissLine[] {
  return near.mismatches.flatMap((m): NearMissLine[] => {
    if (m.field === 'key' || m.field === 'value') {
      const extra: NearMissLine[] = m.field === 'value' && m.taintHasNoValue ? [{ hint: 'the taint has no value: use operator Exists, or remove the value' }] : [];
      const label = near.mismatches.length > 1 ? `toleration ${m.field}` : undefined;
      return m.diff ? [{ diff: m.diff, ...(label ? { label } : {}), sides: tainted }, ...extra] : extra;
    }
    if (m.field === 'effect') {
      const why = m.preferNoScheduleAgainstNoSchedule ? ' (PreferNoSchedule tolerates only PreferNoSchedule taints)' : '';
      return [{ note: `effect: ${tainted === 'node' ? 'pod' : 'request'} ${m.wanted}, ${tainted} ${m.actual}${why}` }];
    }
    return [{ note: `operator: ${m.wanted} (${m.actual} expected)` }];
  });
}

/** A selector entry against the node's closest label; undefined where nothing differs character by character. */
export function selectorBlock(miss: SelectorEntryMiss, source: string): NearMissBlock | undefined {
  const closest = miss.closest;
  if (!closest) return undefined;
  const wanted = miss.wanted.length === 1 ? `${miss.key}=${miss.wanted[0] ?? ''}` : `${miss.key} ${miss.operator} (${miss.wanted.join(', ')})`;
  const keyDiffers = !closest.keyDiff.equal;
  const valueDiffers = closest.valueDiff !== undefined && !closest.valueDiff.equal;
  const both = keyDiffers && valueDiffers;
  const lines: NearMissLine[] = [];
  if (keyDiffers) lines.push({ diff: closest.keyDiff, ...(both ? { label: 'label key' } : {}) });
  if (closest.valueDiff && valueDiffers) lines.push({ diff: closest.valueDiff, ...(both ? { label: 'label value' } : {}) });
  if (lines.length === 0) return undefined;
  return { key: `label|${source}|${miss.key}|${miss.wanted.join(',')}|${closest.key}=${closest.value}`, title: `${source} wants ${wanted}; node has ${closest.key}=${closest.value}`, lines };
}

/** Whether the near-miss block of this entry tells the whole of it (a block exists and differs). */
export function wholeNearMiss(miss: SelectorEntryMiss): boolean {
  const c = miss.closest;
  return c !== undefined && (!c.keyDiff.equal || (c.valueDiff !== undefined && !c.valueDiff.equal));
}
