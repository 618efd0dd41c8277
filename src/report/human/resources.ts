// The request arithmetic: how the pod's request was made, then each short node in numbers.
import Table from 'cli-table3';
import type { Diagnosis } from '../../engine/diagnosis.js';
import { formatResource } from '../../engine/quantity/index.js';
import type { ResourceList } from '../../engine/resources/amounts.js';
import { originSentence } from '../../messages/story.js';
import type { Palette } from '../color.js';
import { quantitiesAlike } from '../../messages/format.js';
import { escapeTerminal } from '../escape.js';
import { kubectlStyle, trimLines } from './tableStyle.js';

function show(list: ResourceList): string {
  const entries = Object.entries(list).filter(([, v]) => v !== 0n).sort(([a], [b]) => a.localeCompare(b));
  return entries.length === 0 ? '<none>' : escapeTerminal(entries.map(([r, v]) => `${r}=${formatResource(r, v)}`).join(', '));
}

export function requestLines(d: Diagnosis, colors: Palette): string[] {
  const r = d.requests;
  if (!r) return [];
  const out = [colors.bold('Pod request') + `  ${show(r.total)}`];
  const p = r.parts;
  const hasInit = Object.keys(p.initPeak).length > 0;
  const hasSidecars = Object.keys(p.sidecars).length > 0;
  if (hasInit || hasSidecars || Object.keys(p.overhead).length > 0 || Object.keys(p.podLevel).length > 0) {
    out.push(`  containers ${show(p.containers)}`);
    if (hasSidecars) out.push(`  + sidecars (restartable init containers) ${show(p.sidecars)}`);
    if (hasInit) out.push(`  largest init step (with the sidecars started before it) ${show(p.initPeak)}; the larger of the two counts, resource by resource`);
    if (Object.keys(p.podLevel).length > 0) out.push(`  pod-level spec.resources replaces ${escapeTerminal(Object.keys(p.podLevel).join(', '))}: ${show(p.podLevel)}`);
    if (Object.keys(p.overhead).length > 0) out.push(`  + overhead (RuntimeClass) ${show(p.overhead)}`);
  }
  for (const origin of r.origins) out.push(escapeTerminal(`  ${originSentence(origin)}`));
  return out;
}

export function shortfallTable(d: Diagnosis): string | undefined {
  const rows = d.nodes.flatMap((n) =>
    n.reasons.flatMap((r) => (r.detail.kind === 'insufficientResource' ? [{ node: n, detail: r.detail }] : [])),
  );
  if (rows.length === 0) return undefined;
  const shown = rows.slice(0, 60);
  // One unit per resource down each column: cpu all in cores or all in millicores.
  const texts = new Map<string, Map<bigint, string>>();
  for (const resource of new Set(shown.map((r) => r.detail.resource))) {
    const amounts = [...new Set(shown.filter((r) => r.detail.resource === resource).flatMap(({ detail: x }) => [x.requested, x.allocatable, x.used, x.free, x.short]))];
    const written = quantitiesAlike(resource, amounts);
    texts.set(resource, new Map(amounts.map((a, i) => [a, written[i] ?? ''])));
  }
  const table = new Table(kubectlStyle(['NODE', 'RESOURCE', 'POD ASKS', 'ALLOCATABLE', 'USED (PODS)', 'FREE', 'SHORT BY']));
  for (const { node, detail } of shown) {
    const f = (v: bigint) => texts.get(detail.resource)?.get(v) ?? formatResource(detail.resource, v);
    table.push([
      escapeTerminal(node.name),
      escapeTerminal(detail.resource),
      f(detail.requested),
      f(detail.allocatable),
      `${f(detail.used)} (${node.pods})`,
      f(detail.free),
      detail.exceedsAllocatable ? `${f(detail.short)} (over allocatable)` : f(detail.short),
    ]);
  }
  const more = rows.length > shown.length ? `\n  … and ${rows.length - shown.length} more rows (-o json has them all)` : '';
  return trimLines(table.toString()) + more;
}
