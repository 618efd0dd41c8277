// `kubectl why-pending capture --from-dump`: a dump someone took with kubectl get (environment
// values, annotations and all) rewritten as a redacted capture, through the CLI as users run it.
// Scenario folders whose dumps lack something (no pod but the target, nodes, a kind), and a
// gang, devices and an admission refusal: the capture's diagnosis is the dump's, in -o json and
// in the human report, the dump's own gaps included. (test/unit/capture/round-trip.test.ts holds
// every folder to the same through the library.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderNames, readScenario, scenariosRoot } from '../support/scenario-folders.js';
import { spawnSync } from 'node:child_process';
import { cliMain, runCli } from './run.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'wp-capture-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const folders = ['dump-only-target-and-nodes', 'fix-none-from-gap', 'nodes-missing-from-dump', 'captured-1.37-gang-unschedulable', 'captured-1.37-dra-device-taint', 'admission-quota-exceeded'];

describe('capture --from-dump gives the dump\'s own answer', () => {
  it('has its folders', () => {
    expect(folders.filter((f) => !folderNames(scenariosRoot).includes(f))).toEqual([]);
  });

  for (const folder of folders) {
    it(folder, () => {
      const { expected, dump } = readScenario<{ query: { namespace: string; name: string }; dump?: string }>(scenariosRoot, folder);
      const query = [expected.query.name, '-n', expected.query.namespace];
      const file = path.join(scratch, `${folder}.tar.gz`);
      const captured = runCli(['capture', ...query, '--from-dump', dump, '-f', file]);
      const direct = runCli([...query, '--from-dump', dump, '-o', 'json']);
      // A pod the dump does not hold is still not found (exit 4), with the capture written.
      expect(captured.code, captured.stderr).toBe(direct.code === 4 ? 4 : 0);
      expect(captured.stdout).toMatch(new RegExp(`^wrote capture ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .* from ${dump.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')};`));
      if (direct.code !== 0) return;
      const back = runCli([...query, '--from-dump', file, '-o', 'json']);
      expect(back.code, back.stderr).toBe(0);
      expect(JSON.parse(back.stdout)).toEqual(JSON.parse(direct.stdout));
      expect(runCli([...query, '--from-dump', file]).stdout).toEqual(runCli([...query, '--from-dump', dump]).stdout);
    });
  }
});

describe('capture -f -', () => {
  it('writes the .tar.gz to standard output and what it wrote to stderr; --from-dump - reads it back', () => {
    const dump = 'examples/gpu-taint-typo.yaml';
    const captured = spawnSync(process.execPath, [cliMain, 'capture', 'web-0', '-n', 'shop', '--from-dump', dump, '-f', '-'], { encoding: 'buffer' });
    expect(captured.status, captured.stderr.toString()).toBe(0);
    expect(captured.stdout.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(captured.stderr.toString()).toMatch(/^wrote capture to standard output: .* from examples\/gpu-taint-typo\.yaml;/);
    const back = spawnSync(process.execPath, [cliMain, 'web-0', '-n', 'shop', '--from-dump', '-', '-o', 'json'], { input: captured.stdout, encoding: 'utf8' });
    expect(back.status, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout)).toEqual(JSON.parse(runCli(['web-0', '-n', 'shop', '--from-dump', dump, '-o', 'json']).stdout));
  });

  it('--save - is refused: the report is on standard output', () => {
    const run = runCli(['web-0', '-n', 'shop', '--save', '-', '--kubeconfig', '/nonexistent']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: --save - would mix the capture with the report/);
  });
});
