// Who holds the scalar resources (GPUs, hugepages) a pod is short of, node by node: the table of
// numbers says how much is missing, this says which pods to move to free it.
import type { Diagnosis } from '../../engine/diagnosis.js';
import { holdersText } from '../../messages/rules/NodeResourcesFit.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';
import { sectionRows } from './presentation.js';

/** Nodes listed; -o json has every one. */
const nodesShown = 10;

export function holderLines(d: Diagnosis, colors: Palette): string[] {
  const rows = sectionRows(d, 'holders');
  if (rows.length === 0) return [];
  const lines = rows.slice(0, nodesShown).map(({ node, row }) => escapeTerminal(`  ${node.name}: ${row.resource} held by ${holdersText(row.resource, row.holders, row.holderCount)}`));
  const more = rows.length > nodesShown ? [`  … and ${rows.length - nodesShown} more nodes (-o json has them all)`] : [];
  return [colors.bold('Pods holding what is short'), ...lines, ...more];
}
