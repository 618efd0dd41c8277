// The library as another program imports it: `import { diagnose, triage, readDump } from
// 'kubectl-why-pending'` through package.json's "exports" (the built dist/index.js and its
// types), run by Node 24 in a process of its own and type-checked as a consumer's file.
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './run.js';
import { expectValidDiagnosis, expectValidTriage } from '../support/schema.js';

const node = path.join(repoRoot, 'node_modules', 'node', 'bin', 'node');
// Inside the repository, so that the package resolves its own name (self-reference).
const dir = mkdtempSync(path.join(repoRoot, 'test', '.library-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const consumer = `
import { diagnose, triage, readDump } from 'kubectl-why-pending';
const snapshot = await readDump(${JSON.stringify(path.join(repoRoot, 'examples', 'gpu-taint-typo.yaml'))});
const result = diagnose(snapshot, { namespace: 'shop', name: 'web-0' });
if (result.kind !== 'diagnosis') throw new Error(result.message);
const missing = diagnose(snapshot, { namespace: 'shop', name: 'nope' });
const t = triage(snapshot, { namespace: 'shop' });
console.log(JSON.stringify({ json: result.json, markdown: result.text('markdown'), human: result.text(), missing, triage: t.json, triageText: t.text() }));
`;

/** README's library example and the output it shows. */
function readmeExample(): { code: string; output: string } {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### As a library'));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  const output = /\nprints [\s\S]*?```\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code || !output) throw new Error('README has no library example with its output');
  return { code, output };
}

describe('the library', () => {
  it("prints what README's example says it prints", () => {
    const { code, output } = readmeExample();
    const file = path.join(dir, 'readme-example.mjs');
    writeFileSync(file, code);
    expect(execFileSync(node, [file], { encoding: 'utf8', cwd: repoRoot })).toBe(output);
  });

  it('diagnoses and triages a dump through the exports map, in the JSON contract and any -o text', () => {
    const file = path.join(dir, 'consumer.mjs');
    writeFileSync(file, consumer);
    const out = JSON.parse(execFileSync(node, [file], { encoding: 'utf8' })) as { json: { stage: string }; markdown: string; human: string; missing: { kind: string; message: string }; triage: { kind: string; counts: { pending: number } }; triageText: string };
    expectValidDiagnosis(out.json, 'the library\'s diagnose');
    expect(out.json.stage).toBe('Unschedulable');
    expect(out.markdown.startsWith('### Pod shop/web')).toBe(true);
    expect(out.human).toContain('NODE');
    expect(out.missing.kind).toBe('notFound');
    expect(out.missing.message).toContain('"nope" not found in namespace "shop"');
    expectValidTriage(out.triage, 'the library\'s triage');
    expect(out.triage.counts.pending).toBeGreaterThan(0);
    expect(out.triageText).toContain('pending pod');
  });

  it('has types a consumer compiles against', () => {
    const file = path.join(dir, 'consumer.mts');
    writeFileSync(file, `import { diagnose, readDump, type DiagnosisV1 } from 'kubectl-why-pending';\nconst s = await readDump('x');\nconst r = diagnose(s, { namespace: 'a', name: 'b' });\nconst stage: DiagnosisV1['stage'] | undefined = r.kind === 'diagnosis' ? r.json.stage : undefined;\nexport { stage };\n`);
    const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    // Fails (a thrown error with tsc's output) if the package's types do not resolve or do not fit.
    execFileSync(node, [tsc, '--ignoreConfig', '--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2023', file], { encoding: 'utf8', cwd: repoRoot });
  });
});
