// What could not be checked, said plainly rather than assumed away.
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { Palette } from '../color.js';

function uncheckedLines(d: Diagnosis): string[] {
  const counts = new Map<string, number>();
  for (const node of d.nodes) for (const plugin of node.unchecked) counts.set(plugin, (counts.get(plugin) ?? 0) + 1);
  return [...counts.entries()].map(([plugin, n]) => `  ${plugin} could not be evaluated on ${n} node${n === 1 ? '' : 's'} (shown as ? in the table): a node it passes is not proven to fit`);
}

export function gapLines(d: Diagnosis, colors: Palette): string[] {
  const unchecked = uncheckedLines(d);
  if (d.gaps.length === 0 && unchecked.length === 0) return [];
  const lines = d.gaps.map((g) => {
    switch (g.cause) {
      case 'absentFromDump':
        return `  the input has no ${g.collection}: checks that need them were not made`;
      case 'forbidden':
        return `  ${g.collection}: forbidden; needs "${g.permission.verb} ${g.permission.resource}" ${g.permission.scope === 'cluster' ? 'at cluster scope' : `in ${g.permission.scope}`} (see the README's Permissions section)`;
      case 'error':
        return `  ${g.collection}: ${g.detail}`;
    }
  });
  return [colors.yellow('Not checked'), ...lines, ...unchecked];
}
