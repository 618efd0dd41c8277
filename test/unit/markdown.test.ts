// `-o markdown` parses as intended for every scenario folder, read back with markdown-it (the
// parser of many chat and ticket tools): the headline is a heading, the node table a table of
// three columns with a row per node (or per group of nodes alike), every fenced block a fence of
// its own info string, and no cluster string turns into HTML, a link or emphasis.
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { ruleSet } from '../../src/messages/registry.js';
import { fixText } from '../../src/messages/fixes.js';
import { reportMarkdown } from '../../src/report/markdown/index.js';
import { mdCode, mdText } from '../../src/report/markdown/escape.js';
import { readDump } from '../../src/sources/dump/read.js';
import { folderNames, readScenario, scenariosRoot } from '../support/scenario-folders.js';
import { scenarioDiagnosis } from '../support/scenario-diagnosis.js';

const md = new MarkdownIt({ html: true, linkify: false });

interface Expected {
  query: { namespace: string; name: string };
  dump?: string;
}

type Token = ReturnType<typeof md.parse>[number];

function inlineKinds(tokens: Token[]): string[] {
  return tokens.flatMap((t) => [t.type, ...inlineKinds(t.children ?? [])]);
}

describe('-o markdown of every scenario folder', () => {
  it.each(folderNames(scenariosRoot))('%s', async (folder) => {
    const d = await scenarioDiagnosis(folder);
    if (!d) return;
    let text = '';
    reportMarkdown(d, { write: (s) => (text += s), color: false, columns: 120 });
    const tokens = md.parse(text, {});
    // The headline: the first block, a heading.
    expect(tokens[0]?.type).toBe('heading_open');
    // No cluster string became HTML, a link or an image.
    const kinds = inlineKinds(tokens);
    expect(kinds.filter((k) => ['html_inline', 'html_block', 'link_open', 'image'].includes(k))).toEqual([]);
    // The node table: three columns, a row per node or per group of alike nodes.
    const judged = d.nodes.some((n) => n.reasons.length > 0 || n.unchecked.length > 0);
    const tables = tokens.filter((t) => t.type === 'table_open').length;
    expect(tables).toBe(judged ? 1 : 0);
    if (judged) {
      const header = tokens.filter((t) => t.type === 'th_open').length;
      expect(header).toBe(3);
      const rows = tokens.filter((t) => t.type === 'tr_open').length - 1;
      if (d.nodes.length <= 40) expect(rows).toBe(d.nodes.length);
      else expect(rows).toBeLessThanOrEqual(d.nodes.length);
    }
    // Every block we fence parses as one fence with its info string.
    const fences = tokens.filter((t) => t.type === 'fence').map((t) => t.info);
    const opened = [...text.matchAll(/^ *(`{3,})(yaml|sh|text)$/gm)].map((m) => m[2]);
    expect(fences).toEqual(opened);
    // Each fix's YAML and command, fenced: one block each.
    const texts = d.fixes.map((f) => fixText(f));
    expect(fences.filter((f) => f === 'yaml')).toHaveLength(texts.filter((t) => t.yaml !== undefined).length);
    expect(fences.filter((f) => f === 'sh')).toHaveLength(texts.filter((t) => t.command !== undefined).length);
  });
});

describe('escaping for Markdown', () => {
  const render = (s: string) => md.renderInline(s);

  it.each([
    ['emphasis', 'dedicated=*gpu*_x_'],
    ['a link', '[click](https://example.com)'],
    ['HTML', '<img src=x onerror=alert(1)>'],
    ['a table cell break', 'a|b'],
    ['an entity', '&lt;b&gt;'],
    ['code', 'a`b`c'],
  ])('text with %s reads as the characters it holds', (_name, raw) => {
    const html = render(mdText(raw));
    expect(html).not.toMatch(/<(em|strong|a|img|code|b)\b/);
    // The HTML decoded once is the raw text: nothing was taken for syntax.
    expect(html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&')).toBe(raw);
  });

  it('a line that would open a heading or a list does not', () => {
    expect(md.parse(mdText('# not a heading'), {})[0]?.type).toBe('paragraph_open');
    expect(md.parse(mdText('- not a list'), {})[0]?.type).toBe('paragraph_open');
    expect(md.parse(mdText('1. not a list'), {})[0]?.type).toBe('paragraph_open');
  });

  it('a code span holds backticks whole', () => {
    const tokens = md.parseInline(mdCode('a``b'), {})[0]?.children ?? [];
    expect(tokens.find((t) => t.type === 'code_inline')?.content).toBe('a``b');
  });
});

describe('-o markdown of a triage', () => {
  it('is one table row per cause, its pods in code spans', async () => {
    const { triage } = await import('../../src/engine/triage.js');
    const { presentTriage } = await import('../../src/report/triage/present.js');
    const { triageEntry } = await import('../../src/report/triage/group.js');
    const { reportTriageMarkdown } = await import('../../src/report/markdown/triage.js');
    const { dump } = readScenario<Expected>(scenariosRoot, 'captured-1.37-gang-unschedulable');
    const snapshot = await readDump(dump, process.stdin);
    const t = presentTriage({ scope: { namespace: 'ml' }, source: snapshot.source, ...triage(ruleSet, snapshot, { namespace: 'ml' }, triageEntry) });
    let text = '';
    reportTriageMarkdown(t, { write: (s) => (text += s), color: false, columns: 120 });
    const tokens = md.parse(text, {});
    expect(tokens.filter((x) => x.type === 'th_open')).toHaveLength(4);
    expect(tokens.filter((x) => x.type === 'tr_open')).toHaveLength(1 + t.groups.length);
    expect(inlineKinds(tokens).filter((k) => k === 'code_inline')).toHaveLength(3);
  });
});
