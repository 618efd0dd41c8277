// What the benchmarks that write a section of BENCHMARKS.md of their own share (bench:watch,
// bench:replay): the machine line, a table of targets met or not, and the section itself,
// rewritten between its own marks so that each run rewrites only its own.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

export interface Target {
  target: string;
  measured: string;
  met: boolean;
}

export function targetsTable(heading: string, rows: readonly Target[]): string {
  return [`| ${heading} | measured | |`, '|---|---|---|', ...rows.map((r) => `| ${r.target} | ${r.measured} | ${r.met ? 'met' : '**not met**'} |`)].join('\n');
}

export function machine(nodeVersion: string): string {
  const cpus = os.cpus();
  const model = (cpus[0]?.model ?? '?').replace(/\s+\d+-Core Processor$/, '').trim();
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' / ');
  return `${cpus.length} × ${model}, ${Math.round(os.totalmem() / 1e9)} GB, load average ${load} (1 / 5 / 15 min) at the end; Node ${nodeVersion}`;
}

/**
 * Puts `body` between the marks of `script` (`npm run <script>`), under `heading`, adding the
 * section with `intro` at the end of `file` when the marks are missing.
 */
export function writeSection(file: string, section: { script: string; heading: string; mark?: string }, intro: string, body: string): void {
  // One section per mark: a script that measures several sizes keeps one table for each.
  const mark = section.mark ?? section.script;
  const start = `<!-- ${mark} start: written by \`npm run ${section.script}\`; the text outside these marks is kept -->`;
  const end = `<!-- ${mark} end -->`;
  const old = readFileSync(file, 'utf8');
  const marked = `${start}\n${body}\n${end}`;
  const from = old.indexOf(start);
  const to = old.indexOf(end);
  const doc = from >= 0 && to > from ? `${old.slice(0, from)}${marked}${old.slice(to + end.length)}` : `${old.trimEnd()}\n\n## ${section.heading}\n\n${intro}\n\n${marked}\n`;
  writeFileSync(file, doc);
}
