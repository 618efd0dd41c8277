// Who holds the scalar resources (GPUs, hugepages) a pod is short of, node by node: the table of
// numbers says how much is missing, this says which pods to move to free it.
import type { Diagnosis } from '../../engine/diagnosis.js';
import { holdersText } from '../../messages/rules/NodeResourcesFit.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';

/** Nodes listed; -o json has every one. */
const nodesShown = 10;

export function holderLines(d: Diagnosis, colors: Palette): string[] {
  const rows = d.nodes.flatMap((n) =>
    n.reasons.flatMap((r) => (r.detail.kind === 'insufficientResource' && r.detail.holders && r.detail.holders.length > 0 ? [{ node: n.name, detail: r.detail, holders: r.detail.holders }] : [])),
  );
  if (rows.length === 0) return [];
  const lines = rows.slice(0, nodesShown).map(({ node, detail, holders }) => escapeTerminal(`  ${node}: ${detail.resource} held by ${holdersText(detail.resource, holders, detail.holderCount ?? holders.length)}`));
  const more = rows.length > nodesShown ? [`  … and ${rows.length - nodesShown} more nodes (-o json has them all)`] : [];
  return [colors.bold('Pods holding what is short'), ...lines, ...more];
}
