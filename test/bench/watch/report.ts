// The long watch's results as markdown, and its section of BENCHMARKS.md ("A long watch",
// between its own marks, after the bench:live marks: each run rewrites only its own).
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

export interface Row {
  target: string;
  measured: string;
  met: boolean;
}

export function table(rows: readonly Row[]): string {
  return ['| target | measured | |', '|---|---|---|', ...rows.map((r) => `| ${r.target} | ${r.measured} | ${r.met ? 'met' : '**not met**'} |`)].join('\n');
}

export function machine(nodeVersion: string): string {
  const cpus = os.cpus();
  const model = (cpus[0]?.model ?? '?').replace(/\s+\d+-Core Processor$/, '').trim();
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' / ');
  return `${cpus.length} × ${model}, ${Math.round(os.totalmem() / 1e9)} GB, load average ${load} (1 / 5 / 15 min) at the end; Node ${nodeVersion}`;
}

const start = '<!-- bench:watch start: written by `npm run bench:watch`; the text outside these marks is kept -->';
const end = '<!-- bench:watch end -->';

/** Puts `body` between the marks of "## A long watch", adding the section at the end when missing. */
export function writeSection(file: string, intro: string, body: string): void {
  const old = readFileSync(file, 'utf8');
  const marked = `${start}\n${body}\n${end}`;
  const from = old.indexOf(start);
  const to = old.indexOf(end);
  const doc = from >= 0 && to > from ? `${old.slice(0, from)}${marked}${old.slice(to + end.length)}` : `${old.trimEnd()}\n\n## A long watch\n\n${intro}\n\n${marked}\n`;
  writeFileSync(file, doc);
}
