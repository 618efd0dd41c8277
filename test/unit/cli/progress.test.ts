// The spinner: shown only on a terminal, its text the latest progress line (escaped), gone
// after stop(), and never started when stop() comes before ora has loaded. ora animates only
// where the environment has no CI variable and TERM is not dumb (is-interactive); each test
// sets the environment it means, so that the suite does not depend on where it runs.
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { progressReporter } from '../../../src/cli/progress.js';

/** A stream that says it is a terminal and keeps what is written to it. */
function terminal(isTTY: boolean): NodeJS.WriteStream & { text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  }) as unknown as NodeJS.WriteStream & { text: () => string };
  // What ora asks of a tty.WriteStream besides write().
  const done = (callback?: () => void) => (callback?.(), true);
  Object.assign(stream, { isTTY, columns: 120, text: () => chunks.join(''), cursorTo: (_x: number, callback?: () => void) => done(callback), clearLine: (_dir: number, callback?: () => void) => done(callback), moveCursor: (_dx: number, _dy: number, callback?: () => void) => done(callback) });
  return stream;
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await sleep(10);
}

const saved = { CI: process.env.CI, TERM: process.env.TERM };

function setEnv(name: 'CI' | 'TERM', value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

describe('progressReporter', () => {
  beforeEach(() => {
    setEnv('CI', undefined);
    setEnv('TERM', 'xterm-256color');
  });
  afterEach(() => {
    setEnv('CI', saved.CI);
    setEnv('TERM', saved.TERM);
  });

  it('writes nothing where stderr is not a terminal', async () => {
    const stream = terminal(false);
    const progress = progressReporter(stream);
    progress.update('listing nodes');
    await sleep(200);
    progress.stop();
    expect(stream.text()).toBe('');
  });

  it('on a terminal, shows the latest line, given before or after the spinner loads, escaped', async () => {
    const stream = terminal(true);
    const progress = progressReporter(stream);
    progress.update('listing nodes\u001b[2J');
    await until(() => stream.text().includes('listing nodes'));
    expect(stream.text()).toContain('listing nodes');
    expect(stream.text()).not.toContain('\u001b[2J');
    progress.update('reading pods on 20 nodes');
    await until(() => stream.text().includes('reading pods on 20 nodes'));
    expect(stream.text()).toContain('reading pods on 20 nodes');
    progress.stop();
    const after = stream.text().length;
    await sleep(250);
    expect(stream.text().length).toBe(after);
  });

  it('stopped before the spinner has loaded, never shows one', async () => {
    const stream = terminal(true);
    const progress = progressReporter(stream);
    progress.stop();
    await sleep(300);
    expect(stream.text()).toBe('');
  });

  it('under CI (a terminal that is not interactive), writes the first line once and nothing more', async () => {
    setEnv('CI', 'true');
    const stream = terminal(true);
    const progress = progressReporter(stream);
    progress.update('listing nodes');
    await until(() => stream.text().includes('listing nodes'));
    progress.update('reading pods on 20 nodes');
    await sleep(250);
    progress.stop();
    expect(stream.text()).toBe('- listing nodes\n');
  });
});
