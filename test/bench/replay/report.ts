// The replayed figures as markdown, and their section of BENCHMARKS.md ("Replayed at scale",
// between marks of its own: bench:live and bench:watch rewrite only theirs).
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

export interface ReadRow {
  what: string;
  wallSeconds: number;
  maxRssMB: number;
  /** Wall time over the raw paged read's, JSON and protobuf (the tool's rows only). */
  vsJson?: number;
  vsProtobuf?: number;
  requests?: number;
  podItems?: number;
  engineMs?: number;
}

export interface SizeRows {
  title: string;
  rows: ReadRow[];
  serverPeakMB: number;
}

export function table(sizes: readonly SizeRows[], runs: number): string {
  const n = (x: number | undefined, digits = 2) => (x === undefined || Number.isNaN(x) ? '' : x.toFixed(digits));
  return [
    `| replayed | read | wall (median of ${runs}) | peak RSS | / raw JSON read | / raw protobuf read | requests | pod items served | engine in the CLI |`,
    '|---|---|---|---|---|---|---|---|---|',
    ...sizes.flatMap((s) =>
      s.rows.map((r, i) => `| ${i === 0 ? `${s.title} (server peak RSS ${s.serverPeakMB.toFixed(0)} MB)` : ''} | ${r.what} | ${n(r.wallSeconds)} s | ${r.maxRssMB.toFixed(0)} MB | ${n(r.vsJson)} | ${n(r.vsProtobuf)} | ${r.requests ?? ''} | ${r.podItems ?? ''} | ${r.engineMs === undefined ? '' : `${r.engineMs.toFixed(0)} ms`} |`),
    ),
  ].join('\n');
}

export interface Target {
  target: string;
  measured: string;
  met: boolean;
}

export function targets(rows: readonly Target[]): string {
  return ['| target (issue 33, at the largest size replayed here) | measured | |', '|---|---|---|', ...rows.map((r) => `| ${r.target} | ${r.measured} | ${r.met ? 'met' : '**not met**'} |`)].join('\n');
}

export function machine(nodeVersion: string): string {
  const cpus = os.cpus();
  const model = (cpus[0]?.model ?? '?').replace(/\s+\d+-Core Processor$/, '').trim();
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' / ');
  return `${cpus.length} × ${model}, ${Math.round(os.totalmem() / 1e9)} GB, load average ${load} (1 / 5 / 15 min) at the end; Node ${nodeVersion}`;
}

const start = '<!-- bench:replay start: written by `npm run bench:replay`; the text outside these marks is kept -->';
const end = '<!-- bench:replay end -->';

/** Puts `body` between the marks of "## Replayed at scale", adding the section at the end when missing. */
export function writeSection(file: string, intro: string, body: string): void {
  const old = readFileSync(file, 'utf8');
  const marked = `${start}\n${body}\n${end}`;
  const from = old.indexOf(start);
  const to = old.indexOf(end);
  const doc = from >= 0 && to > from ? `${old.slice(0, from)}${marked}${old.slice(to + end.length)}` : `${old.trimEnd()}\n\n## Replayed at scale\n\n${intro}\n\n${marked}\n`;
  writeFileSync(file, doc);
}
