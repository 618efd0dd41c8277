// A --watch runs for hours and, between wakes, allocates little on V8's heap: V8 then seldom
// collects, and what each wake's reads leave outside the heap (response buffers, TLS and zlib
// state: "external" memory, about 100 KB a wake) waits for a collection V8 schedules only once
// tens of megabytes of it have built up. Over an hour of wakes the process's peak memory crept
// up by 11% that way (BENCHMARKS.md, "A long watch"). So the watch asks for a full collection
// after a wake, at most once a minute: through the inspector protocol in this process, which
// needs no --expose-gc (a flag set at run time would change V8's flag hash, and with it the
// code cache's key). Where Node was built without the inspector, nothing is collected.
import type { Session } from 'node:inspector';

const everyMs = 60_000;
let last = 0;
let session: Session | null | undefined;

async function openSession(): Promise<Session | null> {
  try {
    const { Session: InspectorSession } = await import('node:inspector');
    const opened = new InspectorSession();
    opened.connect();
    return opened;
  } catch {
    return null;
  }
}

/** A full collection, unless one was made less than a minute ago; whether it collected. */
export async function collectNowAndThen(now = Date.now()): Promise<boolean> {
  if (now - last < everyMs) return false;
  last = now;
  session ??= await openSession();
  const open = session;
  if (!open) return false;
  return new Promise<boolean>((resolve) => open.post('HeapProfiler.collectGarbage', (error) => resolve(!error)));
}

/** Closes the session a collection opened (at the end of the watch). */
export function stopCollecting(): void {
  session?.disconnect();
  session = undefined;
  last = 0;
}
