// The node-by-plugin table. Columns are the plugins that reject at least one node (every
// plugin with -o wide); a narrow terminal gets one column listing the failing plugins. Large
// clusters get one row per distinct verdict instead of one per node.
import Table from 'cli-table3';
import type { NodeVerdict } from '../../engine/diagnosis.js';
import type { PluginName } from '../../engine/plugins.js';
import { filterPluginOrder } from '../../plugins.js';
import { shortReason } from '../../messages/short.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';
import { kubectlStyle, trimLines } from './tableStyle.js';

export interface TableOptions {
  wide: boolean;
  columns: number | undefined;
  colors: Palette;
}

const maxRowsPerNode = 40;
const cellWidth = 30;

function cut(text: string): string {
  return text.length > cellWidth ? `${text.slice(0, cellWidth - 1)}…` : text;
}

function cellFor(node: NodeVerdict, plugin: PluginName, colors: Palette): string {
  const reasons = node.reasons.filter((r) => r.plugin === plugin);
  if (reasons.length === 0) return node.unchecked.includes(plugin) ? colors.yellow('?') : colors.dim('ok');
  const text = escapeTerminal(reasons.map((r) => shortReason(r.detail)).join(', '));
  const first = node.reasons[0]?.plugin === plugin;
  return first ? colors.red(cut(text)) : cut(text);
}

interface Row {
  names: string[];
  sample: NodeVerdict;
}

// Nodes whose cells would read the same share a row.
function rowsOf(nodes: NodeVerdict[], plugins: PluginName[], colors: Palette): Row[] {
  if (nodes.length <= maxRowsPerNode) return nodes.map((n) => ({ names: [n.name], sample: n }));
  const rows = new Map<string, Row>();
  for (const node of nodes) {
    const key = plugins.map((p) => cellFor(node, p, colors)).join('\u0000') + node.verdict;
    const row = rows.get(key) ?? { names: [], sample: node };
    row.names.push(node.name);
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => b.names.length - a.names.length);
}

function nameCell(names: string[]): string {
  if (names.length === 1) return escapeTerminal(names[0] ?? '');
  return escapeTerminal(`${names.slice(0, 2).join(', ')} +${names.length - 2} (${names.length} nodes)`);
}

export function nodeTable(nodes: NodeVerdict[], options: TableOptions): string {
  const { colors } = options;
  const failing = filterPluginOrder.filter((p) => nodes.some((n) => n.reasons.some((r) => r.plugin === p) || n.unchecked.includes(p)));
  const plugins: PluginName[] = options.wide ? [...filterPluginOrder] : failing;
  const perPluginWidth = 20 + plugins.length * 18;
  const compact = !options.wide && options.columns !== undefined && perPluginWidth > options.columns;
  const head = compact ? ['NODE', 'FITS', 'FAILS (FIRST AS THE SCHEDULER REPORTS IT)'] : ['NODE', 'FITS', 'FIRST FAILURE', ...plugins];
  const table = new Table(kubectlStyle(head));
  for (const row of rowsOf(nodes, plugins, colors)) {
    const node = row.sample;
    const fits = node.verdict === 'fits' ? colors.green('yes') : node.verdict === 'unproven' ? colors.yellow('unknown') : colors.red('no');
    if (compact) {
      const names = [...new Set(node.reasons.map((r) => r.plugin))];
      table.push([nameCell(row.names), fits, names.join(', ') || '-']);
    } else {
      table.push([nameCell(row.names), fits, node.reasons[0]?.plugin ?? '-', ...plugins.map((p) => cellFor(node, p, colors))]);
    }
  }
  return trimLines(table.toString());
}
