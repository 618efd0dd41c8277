// Polling with a deadline.
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Calls `probe` every `intervalMs` until it returns a value other than undefined. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  { timeoutMs = 60_000, intervalMs = 200 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
      last = undefined;
    } catch (err) {
      // Errors marked fatal stop the wait at once (e.g. a component exited).
      if (err instanceof Error && (err as Error & { fatal?: boolean }).fatal) throw err;
      last = err;
    }
    if (Date.now() > deadline) {
      const why = last instanceof Error ? `: ${last.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await sleep(intervalMs);
  }
}

export function fatal(err: unknown): Error {
  const e = err instanceof Error ? err : new Error(String(err));
  (e as Error & { fatal?: boolean }).fatal = true;
  return e;
}
