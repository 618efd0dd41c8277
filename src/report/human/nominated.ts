// Room held on nodes by nominated pods: which pods, and whether they alone keep this pod off.
import type { Diagnosis } from '../../engine/diagnosis.js';
import { nominatedLine } from '../../messages/nominated.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';

/** Nodes listed; -o json has every one. */
const nodesShown = 10;

export function nominatedLines(d: Diagnosis, colors: Palette): string[] {
  const lines = d.nodes.flatMap((n) => {
    const line = nominatedLine(n, d.pod.priority ?? 0);
    return line ? [escapeTerminal(`  ${line}`)] : [];
  });
  if (lines.length === 0) return [];
  const more = lines.length > nodesShown ? [`  … and ${lines.length - nodesShown} more nodes (-o json has them all)`] : [];
  return [colors.bold('Room held for nominated pods'), ...lines.slice(0, nodesShown), ...more];
}
