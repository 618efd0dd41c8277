// The README shows real output: every example run from a dump (`$ kubectl why-pending ...
// --from-dump ...` followed by the whole output) is run here and must print exactly that.
// A change to the story updates the README, or this fails (kubectl-neat's golden files).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './run.js';

interface Example {
  line: number;
  args: string[];
  output: string;
}

function examples(): Example[] {
  const lines = readFileSync(path.join(repoRoot, 'README.md'), 'utf8').split('\n');
  const out: Example[] = [];
  lines.forEach((text, i) => {
    const command = /^\$ kubectl why-pending (.*--from-dump .*)$/.exec(text);
    if (!command?.[1]) return;
    const end = lines.indexOf('```', i);
    const args = command[1].split(/\s+/).map((a) => (a.startsWith('examples/') || a.startsWith('test/') ? path.join(repoRoot, a) : a));
    out.push({ line: i + 1, args, output: lines.slice(i + 1, end).join('\n') });
  });
  return out;
}

describe('README examples', () => {
  const all = examples();
  it('has the taint typo, fragmentation and preemption stories', () => {
    expect(all.length).toBeGreaterThanOrEqual(3);
  });

  it.each(all.map((e) => [e.line, e] as const))('line %i prints what the README shows', (_line, example) => {
    const run = runCli(example.args);
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd()).toBe(example.output);
  });
});
