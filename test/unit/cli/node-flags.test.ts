// The launcher's shell script cannot import the list of node's flags, so its exec line is held
// to it here (the single executable's execArgv imports it: scripts/release/sea.ts).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFlags } from '../../../src/cli/node-flags.js';

const repo = path.join(import.meta.dirname, '..', '..', '..');
const launcher = readFileSync(path.join(repo, 'bin', 'kubectl-why_pending'), 'utf8');
// The node the launcher runs (the project's pinned dev dependency), not whichever runs the tests.
const pinnedNode = path.join(repo, 'node_modules', 'node', 'bin', 'node');

describe('node flags', () => {
  it('the launcher starts node with exactly the listed flags, before the script', () => {
    const exec = launcher.split('\n').filter((line) => line.startsWith('exec '));
    expect(exec).toHaveLength(1);
    const words = (exec[0] ?? '').split(/\s+/);
    expect(words.slice(0, 2)).toEqual(['exec', '"$node"']);
    expect(words.slice(2, 2 + nodeFlags.length)).toEqual(nodeFlags);
    expect(words[2 + nodeFlags.length]).toBe('"$root/dist/cli/launch.js"');
  });

  it('lists flags the pinned node takes on its command line, each once', () => {
    expect(new Set(nodeFlags).size).toBe(nodeFlags.length);
    // node refuses a flag it does not know ("bad option") with exit code 9; its execArgv ends
    // with -e and the script.
    const run = spawnSync(pinnedNode, [...nodeFlags, '-e', 'process.stdout.write(JSON.stringify(process.execArgv.slice(0, -2)))'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(nodeFlags);
  });
});
