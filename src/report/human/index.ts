// The human report: the sentence first, then the node table, then the details.
import { type Diagnosis } from '../../engine/diagnosis.js';
import { judgedStages } from '../../engine/stage.js';
import { plural } from '../../messages/format.js';
import { describeReason } from '../../messages/reasons.js';
import { nominatedHeadline } from '../../messages/nominated.js';
import { releaseLine } from '../../messages/release.js';
import { summarySentence } from '../../messages/summary.js';
import { palette } from '../color.js';
import { escapeTerminal, escapeTerminalKeeping } from '../escape.js';
import type { Writer } from '../writer.js';
import { twinsAsOne } from './asOne.js';
import { fixLines } from './fixes.js';
import { gapLines } from './gaps.js';
import { holderLines } from './holders.js';
import { nearMisses, toldAsNearMiss } from './nearMisses.js';
import { nominatedLines } from './nominated.js';
import { toldByRow, toldInSection } from './presentation.js';
import { requestLines, shortfallTable } from './resources.js';
import { schedulerLines } from './scheduler.js';
import { stageLines } from './stage.js';
import { maxRowsPerNode, nodeTable } from './table.js';

export interface HumanOptions {
  wide: boolean;
}

// Every string from the cluster is escaped (escape.ts) before it joins a line: whole lines where
// a line has no colour, the pieces before colouring otherwise.
function noteLines(d: Diagnosis): string[] {
  return d.notes.map((n): string => {
    switch (n.kind) {
      case 'resolvedFromOwner':
        return `(${n.data.owner.kind}/${n.data.owner.name} resolved to its pod ${d.pod.name})`;
      case 'otherPendingPods':
        return `(${n.data.pods.length} more pending pods of the same owner: ${n.data.pods.slice(0, 5).join(', ')})`;
      case 'requestExceedsEveryNode':
        return 'The pod asks more than the whole allocatable of every node: no eviction or preemption can help; shrink the request or add bigger nodes.';
      case 'noNodes':
        return 'There are no nodes to schedule on.';
      case 'repeatedObjects':
        return `(the input held ${n.data.count} repeated object${n.data.count === 1 ? '' : 's'}; each object was read once)`;
      case 'conflictingVersions': {
        const { object: o, kept, dropped } = n.data;
        const version = (v: { resourceVersion?: string; where: string }) => `resourceVersion ${v.resourceVersion ?? '<none>'} (${v.where})`;
        return `(${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name} appears in ${dropped.length + 1} versions: kept the newer, ${version(kept)}; dropped ${dropped.map(version).join(', ')})`;
      }
    }
  }).map(escapeTerminal);
}

/** Lines of the Reasons section at most. */
const maxReasonLines = 20;

// Reasons that have no table of their own: one line each, nodes grouped by identical text.

function otherReasons(d: Diagnosis, wide: boolean): string[] {
  // The first reason of a node's row, where the row says all of it (the descriptor decides).
  const inRow = (node: Diagnosis['nodes'][number], r: Diagnosis['nodes'][number]['reasons'][number]) =>
    !wide && d.nodes.length <= maxRowsPerNode && r === node.reasons[0] && toldByRow(r);
  const byText = new Map<string, string[]>();
  // Each detail's line once: nodes of one class share their details.
  const texts = new Map<Diagnosis['nodes'][number]['reasons'][number]['detail'], string>();
  for (const node of d.nodes) {
    for (const r of node.reasons) {
      if (toldInSection(r)) continue;
      // A near miss is shown, character by character, under "Near misses".
      if (toldAsNearMiss(r) || inRow(node, r)) continue;
      let text = texts.get(r.detail);
      if (text === undefined) texts.set(r.detail, (text = `${r.plugin}: ${describeReason(r.detail)}`));
      const named = byText.get(text);
      if (named) named.push(node.name);
      else byText.set(text, [node.name]);
    }
  }
  if (byText.size === 0) return [];
  // The reasons most nodes share first, and a bounded list: 5,000 nodes may each have their own.
  const entries = [...byText.entries()].sort((a, b) => b[1].length - a[1].length);
  const lines = entries.slice(0, maxReasonLines).map(([text, nodes]) => escapeTerminal(`  ${text}  [${nodes.length > 5 ? `${nodes.slice(0, 5).join(', ')} and ${nodes.length - 5} more` : nodes.join(', ')}]`));
  const left = entries.slice(maxReasonLines);
  if (left.length > 0) lines.push(`  (${plural(left.length, 'more reason')}, on ${plural(left.reduce((n, [, nodes]) => n + nodes.length, 0), 'node')}; -o json has them all)`);
  return ['Reasons', ...lines];
}

export function reportHuman(diagnosis: Diagnosis, out: Writer, options: HumanOptions): void {
  const d = twinsAsOne(diagnosis);
  const colors = palette(out.color);
  const sections: string[][] = [];
  const held = nominatedHeadline(d.nodes);
  sections.push([colors.bold(escapeTerminal(summarySentence(d))), ...(held ? [escapeTerminal(held)] : []), ...noteLines(d)]);
  if (d.preFilter.length > 0) {
    sections.push(['Before any node (PreFilter)', ...d.preFilter.map((r) => escapeTerminal(`  ${r.plugin} (${r.code}): ${describeReason(r.detail)}`))]);
  }
  // The table already says each node's shortfall; its arithmetic (allocatable, used, free) is for -o wide.
  const shortfall = shortfallTable(d, out.columns, options.wide);
  if (d.nodes.some((n) => n.reasons.length > 0 || n.unchecked.length > 0)) {
    const hint = shortfall && !options.wide ? ["(-o wide shows each node's arithmetic: allocatable, used by its pods, free, short by)"] : [];
    sections.push([nodeTable(d.nodes, { wide: options.wide, columns: out.columns, colors }), ...hint]);
  } else if (d.preFilter.length > 0 && d.nodes.length > 0) {
    sections.push([`Every node passes the filters; only the failure above stops the pod.`]);
  }
  sections.push(nominatedLines(d, colors));
  sections.push(nearMisses(d, colors));
  sections.push(fixLines(d, colors, options.wide));
  const reasons = otherReasons(d, options.wide);
  if (reasons.length > 0) sections.push([colors.bold(reasons[0] ?? ''), ...reasons.slice(1)]);
  // Where the filters ran and no node is short of anything, the request decides nothing: -o wide.
  const requestDecides = !judgedStages.has(d.stage) || shortfall !== undefined || d.notes.some((n) => n.kind === 'requestExceedsEveryNode');
  if (options.wide || requestDecides) sections.push(requestLines(d, colors));
  if (shortfall && options.wide) sections.push([colors.bold('Resources short, node by node'), shortfall]);
  sections.push(holderLines(d, colors));
  sections.push(stageLines(d, colors));
  // Only where the scheduler still decides: past it (bound, never created, or bypassed by a
  // nodeName set by hand) its words on this pod are history, not cause.
  const scheduler = judgedStages.has(d.stage) && d.stage !== 'NodeNameSet' ? schedulerLines(d, colors) : [];
  // Which release's rules were replayed, once, where the filters were (the version is the
  // cluster's text): the last line of what the scheduler said, which it is checked against.
  const release = judgedStages.has(d.stage) ? [escapeTerminal(releaseLine(d.cluster))] : [];
  sections.push(scheduler.length > 0 ? [...scheduler, ...release] : release);
  // Gap lines carry collection names and error details from the cluster; only the heading is coloured.
  const [gapsHeading, ...gaps] = gapLines(d, colors);
  if (gapsHeading !== undefined) sections.push([gapsHeading, ...gaps.map(escapeTerminal)]);
  const text = sections.filter((s) => s.length > 0).map((s) => s.join('\n')).join('\n\n') + '\n';
  // The safety net: only our own line breaks and colours reach the terminal as controls.
  out.write(escapeTerminalKeeping(text, colors.sequences));
}
