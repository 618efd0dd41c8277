// `-o markdown`: the diagnosis for a ticket or a chat channel. The same sections as the terminal
// report, from the same words: the headline, the node table as a Markdown table (grouped by
// cause when it is long), near misses in a fenced block with the differing characters marked,
// fixes with their YAML and commands fenced, then the stage's story, the scheduler's words and
// what was not checked. Every cluster string is escaped for Markdown (escape.ts).
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { NodeVerdict } from '../../engine/judge.js';
import { judgedStages } from '../../engine/stage.js';
import { fixText } from '../../messages/fixes.js';
import { nominatedHeadline } from '../../messages/nominated.js';
import { describeReason } from '../../messages/reasons.js';
import { releaseLine } from '../../messages/release.js';
import { shortReason } from '../../messages/short.js';
import { summarySentence } from '../../messages/summary.js';
import { palette } from '../color.js';
import { gapLines } from '../human/gaps.js';
import { nearMisses, toldAsNearMiss } from '../human/nearMisses.js';
import { requestLines } from '../human/resources.js';
import { schedulerLines } from '../human/scheduler.js';
import { stageLines } from '../human/stage.js';
import { twinsAsOne } from '../human/asOne.js';
import type { Writer } from '../writer.js';
import { mdBlock, mdCell, mdCode, mdText } from './escape.js';

const plain = palette(false);
/** Rows of the node table at most; above, nodes with the same cell are one row. */
const maxRows = 40;

/**
 * A terminal section ("Heading" then lines indented by two or more) as Markdown: the heading in
 * bold, each line a list item, deeper lines nested.
 */
function section(lines: readonly string[]): string[] {
  const [heading, ...rest] = lines;
  if (heading === undefined) return [];
  const out = [`**${mdText(heading.trim())}**`, ''];
  for (const line of rest) {
    const depth = line.length - line.trimStart().length;
    if (line.trim() === '') continue;
    out.push(`${depth >= 4 ? '  ' : ''}- ${mdText(line.trim())}`);
  }
  return out;
}

function fitsWord(n: NodeVerdict): string {
  return n.verdict === 'fits' ? 'yes' : n.verdict === 'unproven' ? 'unknown' : 'no';
}

function failsCell(n: NodeVerdict): string {
  const [first, ...more] = n.reasons;
  if (!first) return n.unchecked.length > 0 ? `not checked: ${n.unchecked.join(', ')}` : '';
  const others = [...new Set(more.map((r) => r.plugin).filter((p) => p !== first.plugin))];
  return `${first.plugin}: ${shortReason(first.detail)}${others.length > 0 ? `; also ${others.join(', ')}` : ''}`;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

function nodeTable(d: Diagnosis): string[] {
  const rows = d.nodes.map((n) => ({ name: n.name, fits: fitsWord(n), fails: failsCell(n) }));
  // A long table: one row per distinct verdict and cell, with how many nodes share it.
  const grouped =
    rows.length <= maxRows
      ? rows.map((r) => ({ ...r, nodes: mdCode(r.name) }))
      : [...groupBy(rows, (r) => `${r.fits}\u0000${r.fails}`).values()].map((same) => {
          const [first] = same;
          return { name: first?.name ?? '', fits: first?.fits ?? '', fails: first?.fails ?? '', nodes: `${mdCode(first?.name ?? '')}${same.length > 1 ? ` and ${same.length - 1} more` : ''}` };
        });
  return ['| Node | Fits | Fails (in filter order) |', '| --- | --- | --- |', ...grouped.map((r) => `| ${r.nodes} | ${r.fits} | ${mdCell(r.fails)} |`)];
}

function fixes(d: Diagnosis): string[] {
  if (d.fixes.length === 0) return [];
  const out = ['**What would make it fit**', ''];
  for (const fix of d.fixes) {
    const text = fixText(fix);
    out.push(`- *${fix.class}*: ${mdText(text.change)}${fix.makesFit.length > 0 ? ` Makes fit: ${fix.makesFit.slice(0, 10).map(mdCode).join(', ')}${fix.makesFit.length > 10 ? ` and ${fix.makesFit.length - 10} more` : ''}.` : ''}`);
    if (text.yaml) out.push('', ...mdBlock(text.yaml.split('\n'), 'yaml').map((l) => `  ${l}`));
    if (text.command) out.push('', ...mdBlock(text.command.split('\n'), 'sh').map((l) => `  ${l}`));
  }
  return out;
}

function reasons(d: Diagnosis): string[] {
  const byText = new Map<string, string[]>();
  for (const n of d.nodes) {
    for (const r of n.reasons) {
      if (toldAsNearMiss(r)) continue;
      const text = `${r.plugin}: ${describeReason(r.detail)}`;
      byText.set(text, [...(byText.get(text) ?? []), n.name]);
    }
  }
  if (byText.size === 0) return [];
  const items = [...byText].sort((a, b) => b[1].length - a[1].length).slice(0, 20);
  return ['**Reasons**', '', ...items.map(([text, nodes]) => `- ${mdText(text)} (${nodes.slice(0, 5).map(mdCode).join(', ')}${nodes.length > 5 ? ` and ${nodes.length - 5} more` : ''})`)];
}

export function reportMarkdown(diagnosis: Diagnosis, out: Writer): void {
  const d = twinsAsOne(diagnosis);
  const blocks: string[][] = [];
  const held = nominatedHeadline(d.nodes);
  blocks.push([`### ${mdText(summarySentence(d))}`, ...(held ? ['', mdText(held)] : [])]);
  if (d.preFilter.length > 0) blocks.push(['**Before any node (PreFilter)**', '', ...d.preFilter.map((r) => `- ${mdText(`${r.plugin} (${r.code}): ${describeReason(r.detail)}`)}`)]);
  if (d.nodes.some((n) => n.reasons.length > 0 || n.unchecked.length > 0)) blocks.push(nodeTable(d));
  const near = nearMisses(d, plain);
  if (near.length > 0) blocks.push(['**Near misses**', '', ...mdBlock(near.slice(1).map((l) => l.replace(/^ {2}/, '')), 'text')]);
  blocks.push(fixes(d));
  blocks.push(reasons(d));
  blocks.push(section(requestLines(d, plain)));
  // The stage's story: terminal sections, one after another (a heading, then its lines).
  const story = stageLines(d, plain);
  let current: string[] = [];
  for (const line of story) {
    if (!line.startsWith(' ') && current.length > 0) {
      blocks.push(section(current));
      current = [];
    }
    current.push(line);
  }
  if (current.length > 0) blocks.push(section(current));
  if (judgedStages.has(d.stage) && d.stage !== 'NodeNameSet') {
    const said = schedulerLines(d, plain);
    blocks.push([...section(said), '', mdText(releaseLine(d.cluster))]);
  }
  blocks.push(section(gapLines(d, plain)));
  out.write(`${blocks.filter((b) => b.length > 0).map((b) => b.join('\n')).join('\n\n')}\n`);
}
