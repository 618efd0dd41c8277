import { afterEach, describe, expect, it } from 'vitest';
import { collectNowAndThen, stopCollecting } from '../../../src/cli/collect.js';

/** Buffers outside V8's heap that nothing refers to any more: garbage only a collection frees. */
function dropBuffers(megabytes: number): void {
  let kept: Buffer[] = [];
  for (let i = 0; i < megabytes; i++) kept.push(Buffer.alloc(1 << 20, 1));
  kept = [];
  expect(kept).toHaveLength(0);
}

const externalMB = () => process.memoryUsage().external / (1 << 20);

describe('collectNowAndThen', () => {
  afterEach(() => stopCollecting());

  it('frees what a wake left outside the heap', async () => {
    // Under the 64 MB of external memory at which V8 collects by itself.
    dropBuffers(24);
    const before = externalMB();
    expect(await collectNowAndThen(1_000_000)).toBe(true);
    expect(before - externalMB()).toBeGreaterThan(16);
  });

  it('collects at most once a minute', async () => {
    expect(await collectNowAndThen(1_000_000)).toBe(true);
    expect(await collectNowAndThen(1_000_000 + 59_000)).toBe(false);
    expect(await collectNowAndThen(1_000_000 + 60_000)).toBe(true);
  });
});
