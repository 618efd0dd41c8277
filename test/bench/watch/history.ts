// When a watch cannot resume where it was: its resourceVersion is older than what the server
// still holds, and the server answers with an ERROR event, code 410 (Expired), inside a 200
// stream. Two ways this happens to the tool's watches, both checked on the test control plane:
// - events are not in the apiserver's watch cache: their watch reads etcd, and after etcd
//   compacts past its resourceVersion the watch gets "The resourceVersion for the provided
//   watch is too old." (the apiserver compacts every 5 minutes; the harness can compact now);
// - pods and nodes are cached: after an apiserver restart the cache starts at the revision it
//   listed, and a watch from before gets "too old resource version: R (S)".
// The tool's requests are read from the apiserver's audit log (it runs as an audited user).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { ApiClient } from '../../e2e/harness/api.js';
import type { AuditEvent } from '../../e2e/harness/audit.js';

/** The audit log read on from where the last read stopped (it grows for the whole run). */
export class AuditTail {
  readonly events: AuditEvent[] = [];

  constructor(
    private readonly file: string,
    private offset: number,
  ) {}

  /** Adds the complete lines written since the last read; returns every event so far. */
  read(): AuditEvent[] {
    const fd = openSync(this.file, 'r');
    try {
      const buf = Buffer.alloc(Math.max(0, fstatSync(fd).size - this.offset));
      const n = buf.length > 0 ? readSync(fd, buf, 0, buf.length, this.offset) : 0;
      // A line still being written has no newline yet: it is read next time.
      const end = buf.subarray(0, n).lastIndexOf(0x0a) + 1;
      for (const line of buf.subarray(0, end).toString('utf8').split('\n')) if (line) this.events.push(JSON.parse(line) as AuditEvent);
      this.offset += end;
    } finally {
      closeSync(fd);
    }
    return this.events;
  }
}

/** etcd's current revision (the apiserver's resourceVersion), from its v3 JSON gateway. */
export async function etcdRevision(etcd: string): Promise<number> {
  const res = await fetch(`${etcd}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: Buffer.from('/registry/').toString('base64'), limit: 1 }) });
  const body = (await res.json()) as { header?: { revision?: string } };
  const revision = Number(body.header?.revision);
  if (!(revision > 0)) throw new Error(`etcd range: no revision in ${JSON.stringify(body)}`);
  return revision;
}

/** Compacts etcd's history up to `revision`: a watch from before it cannot resume. */
export async function compactEtcd(etcd: string, revision: number): Promise<void> {
  const res = await fetch(`${etcd}/v3/kv/compaction`, { method: 'POST', body: JSON.stringify({ revision: String(revision), physical: true }) });
  if (!res.ok) throw new Error(`etcd compaction to ${revision}: HTTP ${res.status} ${await res.text()}`);
}

/** One request of the tool, from its audit events. */
export interface ToolRequest {
  verb: string;
  resource: string;
  /** The resourceVersion a watch started from. */
  rv: number | undefined;
  /** When the apiserver received it (ms). */
  at: number;
  uri: string;
}

type Timed = AuditEvent & { requestReceivedTimestamp?: string };

export function toolRequests(events: readonly AuditEvent[], user: string): ToolRequest[] {
  const byId = new Map<string, ToolRequest>();
  for (const e of events as readonly Timed[]) {
    if (e.user.username !== user || byId.has(e.auditID)) continue;
    const rv = new URL(e.requestURI, 'https://x').searchParams.get('resourceVersion');
    byId.set(e.auditID, { verb: e.verb, resource: e.objectRef?.resource ?? e.requestURI, rv: rv ? Number(rv) : undefined, at: Date.parse(e.requestReceivedTimestamp ?? ''), uri: e.requestURI });
  }
  return [...byId.values()].sort((a, b) => a.at - b.at);
}

/**
 * What the server answers now to the watch `uri` (as the admin, for a second): the message of
 * its ERROR event when that is a 410, else undefined. A resourceVersion once expired stays so.
 */
export async function expiredAnswer(api: ApiClient, uri: string): Promise<string | undefined> {
  const url = new URL(uri, 'https://x');
  url.searchParams.set('timeoutSeconds', '1');
  const { status, text } = await api.raw('GET', `${url.pathname}${url.search}`);
  if (status !== 200) return undefined;
  const first = JSON.parse(text.split('\n')[0] || '{}') as { type?: string; object?: { code?: number; message?: string } };
  return first.type === 'ERROR' && first.object?.code === 410 ? (first.object.message ?? 'Expired') : undefined;
}

/** A watch of the tool that could not resume, and how soon the tool read everything again. */
export interface Expiry {
  resource: string;
  rv: number;
  at: number;
  cause: string;
  /** From the expired watch to the tool's next LIST (its new resourceVersions): ms. */
  rereadMs: number | undefined;
}

export interface HistoryCut {
  at: number;
  /** Watches from before this revision, opened after `at`, expire. */
  revision: number;
  /** Which watches: those of etcd (not cached), or of the cache (a restart). */
  of: 'etcd' | 'cache';
  cause: string;
}

const uncached = new Set(['events']);

/** The tool's watches that started from a resourceVersion a cut before them had expired. */
export function expiries(requests: readonly ToolRequest[], cuts: readonly HistoryCut[]): Expiry[] {
  const out: Expiry[] = [];
  for (const w of requests) {
    if (w.verb !== 'watch' || w.rv === undefined) continue;
    const rv = w.rv;
    const cut = cuts.find((c) => c.at < w.at && rv < c.revision && (c.of === 'etcd') === uncached.has(w.resource));
    if (!cut) continue;
    const next = requests.find((r) => r.verb === 'list' && r.at >= w.at);
    out.push({ resource: w.resource, rv, at: w.at, cause: cut.cause, rereadMs: next ? next.at - w.at : undefined });
  }
  return out;
}
