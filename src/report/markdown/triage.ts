// `-o markdown` of a triage: the count, then one table row per cause (the pods, their owners,
// where they are stuck, the first pod's headline), and each cause's fixes with their blocks.
import { stageBriefly } from '../../messages/stages.js';
import type { TriageV1 } from '../triage/contract.js';
import type { Writer } from '../writer.js';
import { mdBlock, mdCell, mdCode, mdText } from './escape.js';

const shownPods = 5;

export function reportTriageMarkdown(t: TriageV1, out: Writer): void {
  const where = t.scope.namespace === null ? 'all namespaces' : `namespace ${t.scope.namespace}`;
  const selector = t.scope.selector ? ` matching ${t.scope.selector}` : '';
  const lines = [`### ${mdText(`${t.counts.pending} pending pod${t.counts.pending === 1 ? '' : 's'} in ${where}${selector}, ${t.counts.groups} cause${t.counts.groups === 1 ? '' : 's'}`)}`];
  if (t.groups.length > 0) {
    lines.push('', '| Pods | Owners | Stuck | Why (first pod) |', '| --- | --- | --- | --- |');
    for (const g of t.groups) {
      const pods = g.pods.slice(0, shownPods).map((p) => mdCode(t.scope.namespace === null ? `${p.pod.namespace}/${p.pod.name}` : p.pod.name));
      const more = g.pods.length > shownPods ? ` and ${g.pods.length - shownPods} more` : '';
      const owners = g.owners.map((o) => (o.owner ? `${o.owner.kind}/${o.owner.name} x${o.pods}` : `no controller x${o.pods}`)).join(', ');
      lines.push(`| ${g.count}: ${pods.join(', ')}${more} | ${mdCell(owners)} | ${mdCell(stageBriefly(g.cause.stage))} | ${mdCell(g.headline)} |`);
    }
  }
  for (const [i, g] of t.groups.entries()) {
    if (g.fixes.length === 0) continue;
    lines.push('', `**Cause ${i + 1}: what would make its pods fit**`, '');
    for (const f of g.fixes) {
      lines.push(`- *${f.class}*: ${mdText(f.change)} Makes fit: ${f.makesFit} node${f.makesFit === 1 ? '' : 's'}.`);
      if (f.yaml) lines.push('', ...mdBlock(f.yaml.split('\n'), 'yaml').map((l) => `  ${l}`));
      if (f.command) lines.push('', ...mdBlock(f.command.split('\n'), 'sh').map((l) => `  ${l}`));
    }
  }
  out.write(`${lines.join('\n')}\n`);
}
