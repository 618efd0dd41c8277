// The node-by-plugin table. Columns are the plugins that reject (or could not check) at least
// one node, in the scheduler's filter order, so a node's leftmost failure is the one the
// scheduler reports. It fits the terminal, 80 columns when unknown (160 with -o wide, which
// adds the first failure and the pod count): when the columns do not fit whole, the plugins
// fold into one column. Large clusters get one row per distinct verdict, not one per node.
import Table from 'cli-table3';
import type { NodeVerdict } from '../../engine/judge.js';
import { pluginNames, type PluginName } from '../../engine/names.js';
import { plural } from '../../messages/format.js';
import { shortReason } from '../../messages/short.js';
import { outsideSelection } from '../../messages/summary.js';
import type { Palette } from '../color.js';
import { escapeTerminal } from '../escape.js';
import { kubectlStyle, trimLines } from './tableStyle.js';

export interface TableOptions {
  wide: boolean;
  columns: number | undefined;
  colors: Palette;
}

/** Nodes up to this many get a row each; above, nodes whose cells read the same share one. */
export const maxRowsPerNode = 40;
/**
 * Rows shown at most: a pod pinned to one hostname gives each of 5,000 nodes a row of its own,
 * and a table of 5,000 rows is read by nobody (-o json lists every node).
 */
const maxRows = 40;

/** A plugin column's cell at its widest; a longer value folds the table into one column. */
const maxCellWidth = 40;

function cellText(node: NodeVerdict, plugin: PluginName): string | undefined {
  const reasons = node.reasons.filter((r) => r.plugin === plugin);
  if (reasons.length === 0) return node.unchecked.includes(plugin) ? 'not checked' : undefined;
  return escapeTerminal(reasons.map((r) => shortReason(r.detail)).join(', '));
}

function cellFor(node: NodeVerdict, plugin: PluginName, colors: Palette): string {
  const text = cellText(node, plugin);
  if (text === undefined) return colors.dim('ok');
  if (!node.reasons.some((r) => r.plugin === plugin)) return colors.yellow(text);
  return node.reasons[0]?.plugin === plugin ? colors.red(text) : text;
}

interface Row {
  names: string[];
  sample: NodeVerdict;
}

// Nodes whose cells would read the same share a row. A row's key is made once per pair of lists
// of reasons and unchecked plugins: nodes of one class share both (engine/judge.ts).
function rowsOf(nodes: NodeVerdict[], plugins: PluginName[]): Row[] {
  if (nodes.length <= maxRowsPerNode) return nodes.map((n) => ({ names: [n.name], sample: n }));
  const rows = new Map<string, Row>();
  const keys = new Map<NodeVerdict['reasons'], Map<NodeVerdict['unchecked'], string>>();
  for (const node of nodes) {
    let byUnchecked = keys.get(node.reasons);
    if (!byUnchecked) keys.set(node.reasons, (byUnchecked = new Map()));
    let cells = byUnchecked.get(node.unchecked);
    if (cells === undefined) byUnchecked.set(node.unchecked, (cells = plugins.map((p) => cellText(node, p) ?? '').join('\u0000')));
    const key = cells + node.verdict;
    const row = rows.get(key) ?? { names: [], sample: node };
    row.names.push(node.name);
    rows.set(key, row);
  }
  // The nodes the pod selects first (the ones it was meant for), then the largest groups.
  return [...rows.values()].sort((a, b) => Number(outsideSelection(a.sample)) - Number(outsideSelection(b.sample)) || b.names.length - a.names.length);
}

function nameCell(names: string[]): string {
  if (names.length === 1) return escapeTerminal(names[0] ?? '');
  return escapeTerminal(`${names[0] ?? ''} and ${names.length - 1} more`);
}

function fitCell(node: NodeVerdict, colors: Palette): string {
  if (node.verdict === 'fits') return colors.green('yes');
  return node.verdict === 'unproven' ? colors.yellow('unknown') : colors.red('no');
}

function render(head: string[], body: string[][]): string {
  const table = new Table(kubectlStyle(head));
  table.push(...body);
  return trimLines(table.toString());
}

// eslint-disable-next-line no-control-regex -- measuring printed width means skipping colour codes
const widthOf = (text: string) => Math.max(...text.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').length));

export function nodeTable(nodes: NodeVerdict[], options: TableOptions): string {
  const { colors } = options;
  // One pass over the nodes for the plugins that show, not one per plugin.
  const shown = new Set<PluginName>();
  for (const n of nodes) {
    for (const r of n.reasons) shown.add(r.plugin);
    for (const p of n.unchecked) shown.add(p);
  }
  const plugins = pluginNames.filter((p) => shown.has(p));
  const limit = options.columns ?? (options.wide ? 160 : 80);
  const all = rowsOf(nodes, plugins);
  const rows = all.slice(0, maxRows);
  const left = all.slice(maxRows);
  const more = left.length > 0 ? `\n(${plural(left.reduce((n, r) => n + r.names.length, 0), 'more node')} in ${plural(left.length, 'more row')}; -o json lists every node)` : '';
  const lead = (row: Row) => {
    const node = row.sample;
    const wide = options.wide ? [node.reasons[0]?.plugin ?? '-', row.names.length > 1 ? '' : String(node.pods)] : [];
    return [nameCell(row.names), fitCell(node, colors), ...wide];
  };
  const leadHead = ['NODE', 'FITS', ...(options.wide ? ['FIRST FAILURE', 'PODS'] : [])];
  // A cell is never cut inside its value: the columns are kept only when every cell is whole.
  const wholeCells = rows.every((row) => plugins.every((p) => (cellText(row.sample, p) ?? '').length <= maxCellWidth));
  if (wholeCells) {
    const table = render([...leadHead, ...plugins], rows.map((row) => [...lead(row), ...plugins.map((p) => cellFor(row.sample, p, colors))]));
    if (widthOf(table) <= limit) return table + more;
  }
  // Too many plugins for the width: one column lists them, the first (the scheduler's) with its
  // reason when it fits whole, else the plugin names alone (the Reasons section has the rest).
  // The lead columns' width, their padding and the two spaces between columns.
  const room = Math.max(24, limit - widthOf(render(leadHead, rows.map(lead))) - 3);
  return (
    render(
      [...leadHead, 'FAILS (IN FILTER ORDER)'],
      rows.map((row) => [...lead(row), failsText(row.sample, room)]),
    ) + more
  );
}

function failsText(node: NodeVerdict, room: number): string {
  const first = node.reasons[0];
  if (!first) {
    if (node.unchecked.length === 0) return '-';
    const all = `not checked: ${node.unchecked.join(', ')}`;
    return all.length <= room ? all : `${node.unchecked.length} plugins not checked`;
  }
  const others = [...new Set(node.reasons.slice(1).map((r) => r.plugin))].filter((p) => p !== first.plugin);
  const also = others.length > 0 ? `; also ${others.join(', ')}` : '';
  const forms = [
    `${first.plugin}: ${escapeTerminal(shortReason(first.detail))}${also}`,
    `${first.plugin}: ${escapeTerminal(shortReason(first.detail))}${others.length > 0 ? ` (+${others.length} more)` : ''}`,
    `${first.plugin}${also}`,
    `${first.plugin}${others.length > 0 ? ` (+${others.length} more)` : ''}`,
  ];
  return forms.find((f) => f.length <= room) ?? forms[forms.length - 1] ?? first.plugin;
}
