// The cluster's version through the CLI: `kubectl version -o json|yaml` in a dump names the release
// whose rules are replayed, which the human report says in one line and -o json as `cluster`;
// without it, the newest release modelled is replayed, and that is said once too.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseDiagnosisJson } from '../support/schema.js';
import { repoRoot, runCli } from './run.js';

const exampleText = readFileSync(path.join(repoRoot, 'examples', 'gpu-taint-typo.yaml'), 'utf8');
const versionOutput = {
  clientVersion: { major: '1', minor: '34', gitVersion: 'v1.34.1', platform: 'linux/amd64' },
  kustomizeVersion: 'v5.7.1',
  serverVersion: { major: '1', minor: '34', gitVersion: 'v1.34.4', platform: 'linux/amd64' },
};
const withVersion = `${stringify(versionOutput)}---\n${exampleText}`;
const args = (...more: string[]) => ['web-0', '-n', 'shop', '--from-dump', '-', ...more];
const linesWith = (text: string, needle: string) => text.split('\n').filter((line) => line.includes(needle));

describe("the cluster's version", () => {
  it('from `kubectl version` in the dump: one line of the human report, and `cluster` in -o json', () => {
    const human = runCli(args(), { input: withVersion });
    expect(human.code).toBe(0);
    expect(linesWith(human.stdout, 'Checked against the filters')).toEqual(['Checked against the filters of kube-scheduler 1.34 (the cluster runs v1.34.4).']);

    const json = runCli(args('-o', 'json'), { input: withVersion });
    expect(json.code).toBe(0);
    const doc = parseDiagnosisJson(json.stdout) as { cluster: unknown };
    expect(doc.cluster).toEqual({ version: 'v1.34.4', rulesOf: '1.34', assumed: false });
  });

  it('without it: the newest release modelled, said once, and `assumed` in -o json', () => {
    const human = runCli(args(), { input: exampleText });
    expect(human.code).toBe(0);
    expect(linesWith(human.stdout, 'Checked against the filters')).toEqual([
      "Checked against the filters of kube-scheduler 1.37, the newest release modelled: the input does not say the cluster's version (for a dump, add the output of `kubectl version -o json`).",
    ]);
    const doc = parseDiagnosisJson(runCli(args('-o', 'json'), { input: exampleText }).stdout) as { cluster: unknown };
    expect(doc.cluster).toEqual({ rulesOf: '1.37', assumed: true });
  });

  it('--help shows how to capture it with the dump', () => {
    const help = runCli(['--help']);
    expect(help.stdout).toContain('kubectl version -o json > case/version.json');
  });
});
