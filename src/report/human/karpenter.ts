// What Karpenter's objects tell, under the stage: the NodeClaim the pod waits for, step by step;
// or, when Karpenter refused, each NodePool as our own replay judges it, near misses character
// by character (a toleration against a NodePool's taint, a label value against its
// requirement), and how that squares with what Karpenter said.
import type { StageDetail } from '../../engine/stage.js';
import type { NodePoolCheck } from '../../engine/karpenter/index.js';
import { formatTaint } from '../../engine/match/tolerations.js';
import type { TextDiff } from '../../engine/nearmiss/index.js';
import { isNearToleration } from '../../engine/match/nearestToleration.js';
import { explainNodePoolDiff, nodeClaimLines, nominatedLine, nodePoolProblemText, reconciliationLine } from '../../messages/karpenter.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';
import { renderAligned } from './aligned.js';

// renderAligned shows invisible characters itself and adds only its colours: not escaped again.
function diffLines(label: string, diff: TextDiff, colors: Palette, indent: string): string[] {
  const [wanted = '', actual = '', marks = ''] = renderAligned(diff, colors);
  return [
    `${indent}${label}`,
    `${indent}  pod:      ${wanted}`,
    `${indent}  nodepool: ${actual}`,
    `${indent}            ${marks}`,
    ...explainNodePoolDiff(diff).map((e) => escapeTerminal(`${indent}  - ${e}`)),
  ];
}

function nearMissLines(check: NodePoolCheck, colors: Palette): string[] {
  const out: string[] = [];
  for (const p of check.problems) {
    if (p.kind === 'untoleratedTaint' && p.nearest && isNearToleration(p.nearest)) {
      for (const m of p.nearest.mismatches) {
        if ((m.field === 'key' || m.field === 'value') && m.diff) out.push(...diffLines(`toleration ${m.field}`, m.diff, colors, '      '));
        else if (m.field === 'effect') out.push(escapeTerminal(`      effect: pod ${m.wanted}, nodepool ${m.actual}`));
      }
    }
    if (p.kind === 'undefinedLabel' && p.closest) out.push(...diffLines('label key', p.closest.diff, colors, '      '));
    if (p.kind === 'noCommonValue' && p.closest) out.push(...diffLines(`label ${p.requirement.key} value`, p.closest.diff, colors, '      '));
  }
  return out;
}

export function karpenterLines(s: StageDetail, colors: Palette): string[] {
  if (!('autoscaler' in s) || s.autoscaler?.autoscaler !== 'karpenter') return [];
  const a = s.autoscaler;
  if (a.state === 'scaleUpTriggered') {
    if (!a.claim) return [];
    const [head = '', ...steps] = nodeClaimLines(a.claim);
    return [colors.bold(escapeTerminal(`Karpenter: ${head}`)), ...steps.map((line) => escapeTerminal(line)), escapeTerminal(`  ${nominatedLine(a.since, a.claim.asOf, a.message)}`)];
  }
  if (!('nodePools' in a) || !a.nodePools) return [];
  const out = [colors.bold("Karpenter's NodePools, replayed")];
  const width = Math.max(...a.nodePools.map((c) => c.nodePool.length));
  for (const check of a.nodePools) {
    const name = check.nodePool.padEnd(width);
    if (check.problems.length === 0) {
      out.push(escapeTerminal(`  ${name}  passes our checks (taints, requirements, limits, readiness); instance types and offerings are not in the input`));
      continue;
    }
    const [first, ...rest] = check.problems;
    out.push(escapeTerminal(`  ${name}  ${first ? nodePoolProblemText(first) : ''}`));
    for (const p of rest) out.push(escapeTerminal(`  ${' '.repeat(width)}  ${nodePoolProblemText(p)}`));
    if (check.startupTaints) out.push(escapeTerminal(`  ${' '.repeat(width)}  (startup taints, which need no toleration: ${check.startupTaints.map(formatTaint).join(', ')})`));
    out.push(...nearMissLines(check, colors));
  }
  if (a.reconciliation) out.push(escapeTerminal(`  ${reconciliationLine(a.reconciliation)}`));
  out.push(escapeTerminal(`  Karpenter said: ${a.message}`));
  return out;
}
