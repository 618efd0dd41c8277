// The first sentence a user reads: the cause, in one line, grouped the way an engineer would
// say it ("3 carry taint ..., 2 have 1500m cpu free and the pod asks 2").
import type { Diagnosis, NodeVerdict } from '../engine/diagnosis.js';
import { formatTaint, formatToleration } from '../engine/match/tolerations.js';
import type { Reason } from '../engine/model.js';
import { diffKinds } from './differences.js';
import { comparisonShort } from './rules/TaintToleration.js';
import { plural, quantity } from './format.js';
import { captureHint, notCheckedClause } from './gaps.js';
import { describeReason } from './reasons.js';
import { stageSentence } from './stage.js';

interface Group {
  key: string;
  nodes: NodeVerdict[];
  phrase: (count: number) => string;
}

function groupOf(reason: Reason, node: NodeVerdict, pending: Map<string, Group>): void {
  const d = reason.detail;
  let key: string;
  let phrase: (count: number) => string;
  if (d.kind === 'untoleratedTaint') {
    const near = d.nearest;
    const tol = near ? formatToleration(near.toleration) : '';
    key = `taint ${formatTaint(d.taint)} ${tol}`;
    const cmp = d.comparisons?.[0];
    const why = near
      ? `, which the pod's toleration ${tol} misses by ${near.mismatches.map((m) => (m.field === 'effect' ? `effect (${m.wanted} vs ${m.actual})` : `${m.field}${'diff' in m ? diffKinds(m.diff.kinds).replace(/^ \(differs by (.*)\)$/, ' ($1)') : ''}`)).join(' and ')}`
      : cmp
        ? `, which the pod's toleration ${formatToleration(cmp.toleration)} does not match (${comparisonShort(cmp)})`
        : ', which the pod does not tolerate';
    if (cmp && !near) key = `taint ${formatTaint(d.taint)} ${formatToleration(cmp.toleration)}`;
    phrase = (n) => `${n} carry taint ${formatTaint(d.taint)}${why}`;
  } else if (d.kind === 'insufficientResource') {
    key = `insufficient ${d.resource}`;
    phrase = (n) => {
      const frees = pending.get(key)?.nodes.map((v) => freeOf(v, d.resource)) ?? [];
      const max = frees.reduce((a, b) => (b > a ? b : a), frees[0] ?? 0n);
      if (d.resource === 'pods') return `${n} already run their maximum number of pods`;
      const many = frees.some((f) => f !== max);
      return `${n} ${n === 1 ? 'has' : 'have'} ${many ? 'at most ' : ''}${quantity(d.resource, max < 0n ? 0n : max)} ${d.resource} free and the pod asks ${quantity(d.resource, d.requested)}`;
    };
  } else {
    key = `${reason.plugin} ${describeReason(d)}`;
    phrase = (n) => `${n} fail ${reason.plugin}: ${describeReason(d)}`;
  }
  const group = pending.get(key) ?? { key, nodes: [], phrase };
  group.nodes.push(node);
  pending.set(key, group);
}

function freeOf(node: NodeVerdict, resource: string): bigint {
  for (const r of node.reasons) if (r.detail.kind === 'insufficientResource' && r.detail.resource === resource) return r.detail.free;
  return 0n;
}

export function summarySentence(d: Diagnosis): string {
  const stage = stageSentence(d);
  if (d.nodes.length === 0) return stage;
  if (d.preFilter[0]) return `${stage} Before any node is looked at, ${d.preFilter[0].plugin} fails: ${describeReason(d.preFilter[0].detail)}.`;
  const groups = new Map<string, Group>();
  for (const node of d.nodes) {
    const first = node.reasons[0];
    if (first) groupOf(first, node, groups);
  }
  const sorted = [...groups.values()].sort((a, b) => b.nodes.length - a.nodes.length);
  const shown = sorted.slice(0, 4).map((g) => g.phrase(g.nodes.length));
  if (sorted.length > 4) shown.push(`${plural(sorted.slice(4).reduce((n, g) => n + g.nodes.length, 0), 'more node')} fail for other reasons`);
  const head = `${d.counts.fitting} of ${plural(d.counts.nodes, 'node')} fit`;
  const failing = `${head}${shown.length > 0 ? `: ${shown.join('; ')}` : ''}.`;
  if (d.counts.unproven === 0) return `${stage} ${failing}`;
  // Never a cause drawn from a gap: say what passes, what was not checked, and how to get it.
  const hint = captureHint(d.gaps);
  const unproven = `${plural(d.counts.unproven, 'node')} ${d.counts.unproven === 1 ? 'passes' : 'pass'} everything that was checked but ${d.counts.unproven === 1 ? 'is' : 'are'} not proven to fit (${notCheckedClause(d.notChecked)}${hint ? `; ${hint}` : ''}).`;
  return `${stage} ${unproven} ${failing}`;
}
