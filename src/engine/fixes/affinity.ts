// Relax a required node-affinity term: drop the expressions of the term that exclude nodes
// which pass every other filter. A term left with no expression would match nothing (an empty
// term matches no node), so such a relaxation is not proposed.
import { evaluateTerm } from '../match/nodeSelector.js';
import { failingOnlyOn, nodeNamed } from './nodes.js';
import type { Candidate, Change, FixInput } from './types.js';

export function proposeRelaxedTerms(input: FixInput): Candidate[] {
  const terms = input.ctx.pod.pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (terms.length === 0) return [];
  const byChange = new Map<string, Candidate>();
  for (const verdict of failingOnlyOn(input.judgement, 'NodeAffinity')) {
    if (!verdict.reasons.every((r) => r.detail.kind === 'requiredAffinityMismatch')) continue;
    const node = nodeNamed(input.ctx.nodes, verdict.name);
    if (!node) continue;
    // The term this node misses by the fewest expressions.
    const options = terms.flatMap((term, index) => {
      const expressions = term.matchExpressions ?? [];
      const result = evaluateTerm(term, node.node);
      if (result.requirements.some((r) => r.field === 'field' && !r.matched)) return [];
      const missed = expressions.flatMap((requirement, i) => (result.requirements[i]?.matched ? [] : [{ index: i, requirement }]));
      const left = expressions.length - missed.length + (term.matchFields ?? []).length;
      const remaining = expressions.filter((_, i) => !missed.some((m) => m.index === i));
      return missed.length > 0 && left > 0 ? [{ term: index, missed, remaining }] : [];
    });
    const best = options.sort((a, b) => a.missed.length - b.missed.length)[0];
    if (!best) continue;
    const change: Change = { kind: 'removeAffinityExpressions', cause: 'NodeAffinity', term: best.term, expressions: best.missed, termAfter: best.remaining };
    const key = JSON.stringify(change);
    const known = byChange.get(key);
    if (known) known.nodes.push(verdict.name);
    else byChange.set(key, { changes: [change], nodes: [verdict.name] });
  }
  return [...byChange.values()].sort((a, b) => b.nodes.length - a.nodes.length).slice(0, 2);
}
