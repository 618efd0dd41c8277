// What could not be checked, said plainly rather than assumed away: the gaps of the input that
// matter for this pod, the plugins left unchecked, and how to capture what is missing.
import type { Diagnosis } from '../../engine/diagnosis.js';
import { captureHint, describeGap, describeNotChecked } from '../../messages/gaps.js';
import type { Palette } from '../color.js';

export function gapLines(d: Diagnosis, colors: Palette): string[] {
  if (d.gaps.length === 0 && d.notChecked.length === 0) return [];
  const lines = d.gaps.map((g) => `  ${describeGap(g)}`);
  lines.push(...d.notChecked.map((n) => `  ${describeNotChecked(n)}`));
  if (d.counts.unproven > 0) {
    lines.push(`  ${d.counts.unproven} node${d.counts.unproven === 1 ? '' : 's'} pass${d.counts.unproven === 1 ? 'es' : ''} everything that was checked (FITS "unknown" in the table): not proven to fit`);
  }
  const hint = captureHint(d.gaps);
  if (hint) lines.push(`  ${hint}`);
  return [colors.yellow('Not checked'), ...lines];
}
