// On a machine without Go, the end-to-end part of `npm test` stops with one line that says what
// is missing and what to do, not a stack trace from deep inside the control-plane build.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('the end-to-end tests without Go', () => {
  it('stop with one line naming Go, and a non-zero exit', () => {
    // Node's own folder and the system's, none of which holds a `go`.
    const env: NodeJS.ProcessEnv = { HOME: process.env['HOME'], PATH: [path.dirname(process.execPath), '/usr/bin', '/bin'].join(':') };
    const run = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--project', 'e2e'], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).not.toBe(0);
    const errors = run.stderr.split('\n').filter((line) => line.startsWith('error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^error: the end-to-end tests need Go 1\.26 or newer on PATH .* run `npm run unit`/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
