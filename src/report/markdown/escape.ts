// Cluster strings in Markdown: every character Markdown reads as syntax is escaped in text and
// table cells, and a code span or fence is made longer than any run of backticks it holds, so
// that a label value can neither format the ticket nor break out of its block. Control and
// invisible characters are shown as code points first, as the terminal report shows them.
import { escapeTerminal } from '../escape.js';

/**
 * Text for a paragraph or a list item: emphasis, code, links, HTML, tables and strikethrough
 * escaped anywhere; a heading, list or quote marker only where it would open a line.
 */
export function mdText(text: string): string {
  const escaped = escapeTerminal(text).replace(/[\\`*_[\]<>|~&]/g, (c) => `\\${c}`);
  return escaped.replace(/^[#+\-=]/, (m) => `\\${m}`).replace(/^(\d+)([.)])/, '$1\\$2');
}

/** Text for a table cell: as text, and on one line. */
export function mdCell(text: string): string {
  return mdText(text).replace(/\r?\n/g, ' ');
}

/** The backticks that fence `text`: one more than its longest run (three at least for a block). */
function fence(text: string, least: number): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(least, longest + 1));
}

/** An inline code span. */
export function mdCode(text: string): string {
  const shown = escapeTerminal(text).replace(/\r?\n/g, ' ');
  const f = fence(shown, 1);
  // A span that starts or ends with a backtick needs a space inside its fence.
  const pad = shown.startsWith('`') || shown.endsWith('`') ? ' ' : '';
  return `${f}${pad}${shown}${pad}${f}`;
}

/** A fenced block of `lines`, with its info string (yaml, sh, text). */
export function mdBlock(lines: readonly string[], info: string): string[] {
  const shown = lines.map(escapeTerminal);
  const f = fence(shown.join('\n'), 3);
  return [`${f}${info}`, ...shown, f];
}
