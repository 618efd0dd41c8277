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
import { byText } from '../../engine/order.js';
import { sectionRows } from './presentation.js';

function show(list: ResourceList): string {
  const entries = Object.entries(list).filter(([, v]) => v !== 0n).sort(([a], [b]) => byText(a, b));
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

export function shortfallTable(d: Diagnosis, columns: number | undefined, wide: boolean): string | undefined {
  const rows = sectionRows(d, 'shortfall').map(({ node, row }) => ({ node, detail: row }));
  if (rows.length === 0) return undefined;
  const shown = rows.slice(0, 60);
  // One unit per resource down each column: cpu all in cores or all in millicores.
  const texts = new Map<string, Map<bigint, string>>();
  for (const resource of new Set(shown.map((r) => r.detail.resource))) {
    const amounts = [...new Set(shown.filter((r) => r.detail.resource === resource).flatMap(({ detail: x }) => [x.requested, x.allocatable, x.used, x.free, x.short]))];
    const written = quantitiesAlike(resource, amounts);
    texts.set(resource, new Map(amounts.map((a, i) => [a, written[i] ?? ''])));
  }
  const cells = shown.map(({ node, detail }) => {
    const f = (v: bigint) => texts.get(detail.resource)?.get(v) ?? formatResource(detail.resource, v);
    return {
      node: escapeTerminal(node.name),
      resource: escapeTerminal(detail.resource),
      asks: f(detail.requested),
      allocatable: f(detail.allocatable),
      used: f(detail.used),
      pods: node.pods,
      free: f(detail.free),
      short: f(detail.short),
      over: detail.exceedsAllocatable,
    };
  });
  const table = new Table(kubectlStyle(['NODE', 'RESOURCE', 'POD ASKS', 'ALLOCATABLE', 'USED (PODS)', 'FREE', 'SHORT BY']));
  for (const c of cells) table.push([c.node, c.resource, c.asks, c.allocatable, `${c.used} (${c.pods})`, c.free, c.over ? `${c.short} (over allocatable)` : c.short]);
  const rendered = trimLines(table.toString());
  const limit = columns ?? (wide ? 160 : 80);
  // Long node names make the table wider than the terminal: one line per node instead.
  const fits = Math.max(...rendered.split('\n').map((l) => l.length)) <= limit;
  const body = fits
    ? rendered
    : cells
        .map((c) => `  ${c.node}: ${c.resource} asks ${c.asks}, allocatable ${c.allocatable}, used ${c.used} by ${c.pods} pod${c.pods === 1 ? '' : 's'}, free ${c.free}, short by ${c.short}${c.over ? ' (more than its whole allocatable)' : ''}`)
        .join('\n');
  const more = rows.length > shown.length ? `\n  … and ${rows.length - shown.length} more rows (-o json has them all)` : '';
  return body + more;
}
