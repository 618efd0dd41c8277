// No section of a report contradicts another (issue 32): over every scenario folder, the
// headline's counts, the node table, the fixes, the scheduler section, the nominated-pod section
// and the not-checked section are held against each other and against -o json.
import { describe, expect, it } from 'vitest';
import type { Diagnosis } from '../src/engine/diagnosis.js';
import { reportHuman } from '../src/report/human/index.js';
import { present } from '../src/report/present.js';
import { folderNames, scenariosRoot } from './support/scenario-folders.js';
import { scenarioDiagnosis } from './support/scenario-diagnosis.js';

function human(d: Diagnosis, wide: boolean): string {
  let text = '';
  reportHuman(d, { write: (s) => (text += s), color: false, columns: 400 }, { wide });
  return text;
}

/** The node table's rows (name, FITS cell), when the report shows the table whole. */
function tableRows(text: string): Map<string, string> | undefined {
  const lines = text.split('\n');
  const header = lines.findIndex((l) => /^NODE\s+FITS\b/.test(l));
  if (header < 0) return undefined;
  const rows = new Map<string, string>();
  for (const line of lines.slice(header + 1)) {
    if (line.trim() === '' || line.startsWith('(')) break;
    const [name, fits] = line.split(/\s+/);
    if (name && fits) rows.set(name, fits);
  }
  return rows;
}

describe('no section contradicts another', () => {
  it.each(folderNames(scenariosRoot))('%s', async (folder) => {
    const d = await scenarioDiagnosis(folder);
    if (!d) return;
    const json = JSON.parse(JSON.stringify(present(d))) as { summary: string; counts: Diagnosis['counts']; nodes: { name: string; verdict: string }[] };
    const text = human(d, true);

    // The headline's "N of M nodes fit" is the counts, which are the verdicts.
    const said = /(\d+) of (\d+) nodes? fits?/.exec(json.summary);
    if (said) {
      expect(Number(said[1]), 'fitting in the headline').toBe(d.counts.fitting);
      expect(Number(said[2]), 'nodes in the headline').toBe(d.counts.nodes);
    }
    expect(d.counts.fitting).toBe(d.nodes.filter((n) => n.verdict === 'fits').length);
    expect(d.counts.unproven).toBe(d.nodes.filter((n) => n.verdict === 'unproven').length);
    expect(json.nodes.map((n) => [n.name, n.verdict])).toEqual(d.nodes.map((n) => [n.name, n.verdict]));

    // The table says of each node what its verdict says (where it shows every node).
    const rows = tableRows(text);
    if (rows && rows.size === d.nodes.length) {
      for (const n of d.nodes) expect(rows.get(n.name), `${n.name}'s FITS cell`).toBe(n.verdict === 'fits' ? 'yes' : n.verdict === 'unproven' ? 'unknown' : 'no');
    }

    // A fix makes fit only nodes that do not fit now, and no fix is offered where one already does.
    const now = new Map(d.nodes.map((n) => [n.name, n.verdict]));
    for (const fix of d.fixes) for (const node of fix.makesFit) expect(now.get(node), `${node}, made fit by a fix`).not.toBe('fits');
    if (d.counts.fitting > 0) expect(d.fixes.filter((f) => f.class !== 'wait')).toEqual([]);
    // Fixes come safest class first, and every policy change carries its caution.
    const order = ['correction', 'wait', 'capacity', 'policy'];
    const ranks = d.fixes.map((f) => order.indexOf(f.class));
    expect(ranks, 'fixes in class order').toEqual([...ranks].sort((a, b) => a - b));
    for (const fix of d.fixes.filter((f) => f.class === 'policy')) expect(fix.cautions?.length ?? 0, `a policy fix's caution: ${JSON.stringify(fix.changes.map((c) => c.kind))}`).toBeGreaterThan(0);

    // A plugin not checked on some nodes is unchecked on exactly those nodes, and said so.
    for (const n of d.notChecked) {
      if (n.cause !== 'notModelledOnNodes') continue;
      for (const node of n.nodes) expect(d.nodes.find((v) => v.name === node)?.unchecked, `${node} not checked for ${n.plugin}`).toContain(n.plugin);
    }
    // A node called unknown names what was not checked on it; a node that fits names nothing.
    for (const n of d.nodes) {
      if (n.verdict === 'unproven') expect(n.unchecked.length > 0 || n.disputed === true, `${n.name} is unknown for a reason`).toBe(true);
      if (n.verdict === 'fits') expect(n.unchecked, `${n.name} fits with nothing unchecked`).toEqual([]);
    }
    if (d.notChecked.length > 0 || d.nodes.some((n) => n.unchecked.length > 0)) expect(text).toContain('Not checked');
    if (d.nodes.some((n) => n.disputed)) expect(text).toContain('in dispute, so FITS "unknown"');

    // The scheduler section agrees with itself and with the JSON.
    if (d.scheduler.agrees === true) expect(text).toContain('Agrees:');
    if (d.scheduler.agrees === false) {
      expect(text).toContain('Differs:');
      expect(text).not.toContain('Agrees:');
      expect(json.summary).toContain('disagree');
    }

    // Room held for nominated pods is said exactly where a node's verdict names them.
    expect(text.includes('Room held for nominated pods')).toBe(d.nodes.some((n) => n.nominated));
  });
});
