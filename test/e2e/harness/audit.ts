// The apiserver's audit log, used to prove that why-pending only reads: the harness records
// every request of the non-admin users (level Metadata, every stage) and a test checks, after
// each run, that each of them had verb get, list or watch.
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { stringify } from 'yaml';
import { ApiError, type ApiClient } from './api.js';
import { waitFor } from './wait.js';

/** The audit policy: Metadata for `users` (every stage), nothing for anyone else. */
export function auditPolicy(users: string[]): string {
  const rules: Record<string, unknown>[] = [];
  // An empty `users` list in a rule matches everyone: only write the rule when there are users.
  if (users.length > 0) rules.push({ level: 'Metadata', users });
  rules.push({ level: 'None' });
  return stringify({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules });
}

export interface AuditEvent {
  auditID: string;
  stage: string;
  verb: string;
  requestURI: string;
  user: { username: string; groups?: string[] };
  impersonatedUser?: { username: string };
  userAgent?: string;
  objectRef?: { resource?: string; namespace?: string; name?: string; apiGroup?: string; subresource?: string };
  responseStatus?: { code?: number };
}

const READ_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'watch']);

/** The user a request acted as (the impersonated one when there is one). */
function actingUser(e: AuditEvent): string {
  return e.impersonatedUser?.username ?? e.user.username;
}

/** One line per request: `verb uri -> code (user, agent)`. */
export function describeAudit(e: AuditEvent): string {
  return `${e.verb} ${e.requestURI} -> ${e.responseStatus?.code ?? e.stage} (${actingUser(e)}, ${e.userAgent ?? 'no agent'})`;
}

/** Reads the audit log from byte offsets, so a test can take what one run added. */
export class AuditLog {
  constructor(readonly file: string) {}

  /** The current end of the log. */
  mark(): number {
    const fd = openSync(this.file, 'r');
    try {
      return fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
  }

  /** Every complete event written after `offset`. */
  since(offset: number): AuditEvent[] {
    const fd = openSync(this.file, 'r');
    let text: string;
    try {
      const size = fstatSync(fd).size;
      const buf = Buffer.alloc(Math.max(0, size - offset));
      let read = 0;
      while (read < buf.length) {
        const n = readSync(fd, buf, read, buf.length - read, offset + read);
        if (n === 0) break;
        read += n;
      }
      text = buf.subarray(0, read).toString('utf8');
    } finally {
      closeSync(fd);
    }
    // A line still being written has no newline yet: leave it for the next read.
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    return complete.split('\n').filter(Boolean).map((line) => JSON.parse(line) as AuditEvent);
  }

  /**
   * Waits until every request `user` sent before this call is in the log: sends a marker
   * request as that user and waits for its event. Returns the events of `user` written after
   * `offset`, without the marker's.
   */
  async settle(client: ApiClient, user: string, offset: number): Promise<AuditEvent[]> {
    const marker = `why-pending-audit-marker=${randomBytes(6).toString('hex')}`;
    try {
      await client.get(`/version?${marker}`);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    }
    // Blocking mode writes RequestReceived before serving, ResponseComplete right after.
    const events = await waitFor(`the audit event of ${user}'s marker request`, () => {
      const all = this.since(offset);
      return all.some((e) => e.requestURI.includes(marker) && e.stage === 'ResponseComplete') ? all : undefined;
    }, { timeoutMs: 10_000, intervalMs: 50 });
    return events.filter((e) => actingUser(e) === user && !e.requestURI.includes(marker));
  }
}

/** Requests (one per auditID) whose verb is not a read. */
export function writes(events: AuditEvent[]): AuditEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => {
    if (READ_VERBS.has(e.verb) || seen.has(e.auditID)) return false;
    seen.add(e.auditID);
    return true;
  });
}

/** One event per request: the last stage seen for each auditID. */
export function requests(events: AuditEvent[]): AuditEvent[] {
  const byId = new Map<string, AuditEvent>();
  for (const e of events) byId.set(e.auditID, e);
  return [...byId.values()];
}
