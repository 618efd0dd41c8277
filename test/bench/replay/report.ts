// The replayed figures as a markdown table; ../markdown.ts writes them into their section of
// BENCHMARKS.md ("Replayed at scale").

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
