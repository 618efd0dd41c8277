// "What would make it fit": each confirmed fix as its sentence, the YAML and the command
// indented under it, then the nodes it makes fit (and any it leaves unproven or still blocked).
import type { Diagnosis } from '../../engine/diagnosis.js';
import { classHeadings, fixText, whereLine } from '../../messages/fixes.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';

const shownNodes = 5;

function names(nodes: readonly string[]): string {
  const shown = nodes.slice(0, shownNodes).join(', ');
  return nodes.length > shownNodes ? `${shown} and ${nodes.length - shownNodes} more (${nodes.length})` : shown;
}

/** `wide`: every fix with its YAML; else the YAML of the first (the safest) only, the others a sentence and a command. */
export function fixLines(d: Diagnosis, colors: Palette, wide = true): string[] {
  if (d.fixes.length === 0) return [];
  const out = [colors.bold('What would make it fit')];
  // Where changes to the pod go, said once when several fixes change it the same way.
  const specs = d.fixes.flatMap((f) => (f.spec ? [JSON.stringify(f.spec)] : []));
  const shared = specs.length > 1 && specs.every((s) => s === specs[0]) ? d.fixes.find((f) => f.spec)?.spec : undefined;
  if (shared) out.push(escapeTerminal(`  ${whereLine(shared)}`));
  let heading: string | undefined;
  for (const fix of d.fixes) {
    // Grouped by class, safest first (the order the engine gives them in).
    if (classHeadings[fix.class] !== heading) {
      heading = classHeadings[fix.class];
      out.push(`  ${colors.bold(heading)}`);
    }
    const text = fixText(fix, { whereSaid: shared !== undefined });
    const lines = [`  ${text.change}`];
    const first = fix === d.fixes[0];
    for (const block of [wide || first ? text.yaml : undefined, text.command]) {
      if (block !== undefined) lines.push(...block.split('\n').map((line) => `      ${line}`));
    }
    if (fix.makesFit.length > 0) lines.push(`    makes fit: ${names(fix.makesFit)}`);
    if (fix.unproven.length > 0) lines.push(`    not proven (input incomplete): ${names(fix.unproven)}`);
    const blocked = Object.entries(fix.stillBlockedBy);
    if (blocked.length > 0) lines.push(`    still blocked: ${blocked.slice(0, shownNodes).map(([node, plugins]) => `${node} (${plugins.join(', ')})`).join(', ')}${blocked.length > shownNodes ? ` and ${blocked.length - shownNodes} more` : ''}`);
    out.push(...lines.map(escapeTerminal));
  }
  if (!wide && d.fixes.slice(1).some((f) => fixText(f).yaml !== undefined)) out.push('  (-o wide shows the YAML of every fix; -o json has them all)');
  return out;
}
