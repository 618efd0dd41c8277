// The character-by-character part: each distinct near miss once, with the nodes it applies
// to, the two strings aligned and a marker under every differing character. Which details
// show near misses, and their blocks, each plugin's descriptor says (its `nearMisses` table,
// messages/nearMissBlocks.ts); this draws them.
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { TextDiff } from '../../engine/nearmiss/index.js';
import { explainDiff } from '../../messages/nearmiss.js';
import type { NearMissBlock, NearMissLine } from '../../messages/nearMissBlocks.js';
import type { NearMisses } from '../../messages/plugin.js';
import { pluginNamed } from '../../messages/registry.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';
import { renderAligned } from './aligned.js';

interface Block {
  title: string;
  lines: string[];
  nodes: string[];
}

// renderAligned already shows every control and invisible character as ⟨U+XXXX⟩ and adds only
// its own colours, so its lines are not escaped again (that would show the colours as text).
// The field's name is a line of its own only where a block compares two fields; alone, the
// block's title already says which one differs.
function diffLines(label: string | undefined, diff: TextDiff, colors: Palette, other: 'node' | 'device' = 'node'): string[] {
  const [wanted = '', actual = '', marks = ''] = renderAligned(diff, colors);
  // The two sides aligned: "pod:" and "node:", or "request:" and "device:".
  const [mine, theirs] = other === 'node' ? ['pod:  ', 'node: '] : ['request: ', 'device:  '];
  const pad = ' '.repeat(mine.length);
  return [
    ...(label ? [`    ${label}`] : []),
    `      ${mine}${wanted}`,
    `      ${theirs}${actual}`,
    `      ${pad}${marks}`,
    ...explainDiff(diff, other === 'node' ? undefined : { wanted: 'request', actual: 'device' }).map((e) => escapeTerminal(`      - ${e}`)),
  ];
}

type Reason = Diagnosis['nodes'][number]['reasons'][number];

/** What the reason's plugin shows of this kind of detail under "Near misses" (its descriptor's table). */
function nearMissesOf(reason: Reason): NearMisses<Reason['detail']> | undefined {
  const table = pluginNamed(reason.plugin).nearMisses as Readonly<Record<string, NearMisses<Reason['detail']> | undefined>> | undefined;
  return table?.[reason.detail.kind];
}

/**
 * Whether "Near misses" tells everything this reason says, so the Reasons section need not
 * repeat it (the plugin's descriptor decides: a taint nearly tolerated, a selector whose every
 * unmet entry is a near miss...).
 */
export function toldAsNearMiss(reason: Reason): boolean {
  return nearMissesOf(reason)?.toldWhole?.(reason.detail) ?? false;
}

function drawn(line: NearMissLine, colors: Palette): string[] {
  if ('diff' in line) return diffLines(line.label, line.diff, colors, line.sides);
  if ('note' in line) return [escapeTerminal(`    ${line.note}`)];
  return [escapeTerminal(`      - ${line.hint}`)];
}

export function nearMisses(d: Diagnosis, colors: Palette): string[] {
  const blocks = new Map<string, Block>();
  const add = (key: string, node: string, make: () => Omit<Block, 'nodes'> | undefined) => {
    const existing = blocks.get(key);
    if (existing) return void existing.nodes.push(node);
    const made = make();
    if (made) blocks.set(key, { ...made, nodes: [node] });
  };
  // A spec.nodeName no node has, against the node names it nearly is: before the reasons' blocks.
  const stage = d.stageDetail;
  if (stage.stage === 'NodeNameSet') {
    for (const near of stage.nearNodes ?? []) {
      add(`nodeName|${near.name}`, near.name, () => ({ title: `spec.nodeName ${stage.nodeName}, which no node has, vs the node's name`, lines: diffLines(undefined, near.diff, colors) }));
    }
  }
  // Each detail's blocks worked out once: nodes of one class share their details.
  const known = new Map<Reason['detail'], NearMissBlock[]>();
  for (const node of d.nodes) {
    for (const reason of node.reasons) {
      let found = known.get(reason.detail);
      if (!found) known.set(reason.detail, (found = nearMissesOf(reason)?.blocks(reason.detail) ?? []));
      for (const block of found) add(block.key, node.name, () => ({ title: block.title, lines: block.lines.flatMap((line) => drawn(line, colors)) }));
    }
  }
  if (blocks.size === 0) return [];
  const out = [colors.bold('Near misses')];
  for (const block of blocks.values()) {
    const nodes = block.nodes.length > 5 ? `${block.nodes.slice(0, 5).join(', ')} and ${block.nodes.length - 5} more` : block.nodes.join(', ');
    out.push(escapeTerminal(`  ${block.title}  [${nodes}]`), ...block.lines);
  }
  return out;
}
