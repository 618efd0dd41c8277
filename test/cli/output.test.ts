// The CLI end to end on the bundled example: formats, colour, help, kubectl plugin lookup.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseDiagnosisJson } from '../support/schema.js';
import { repoRoot, runCli } from './run.js';

const example = path.join(repoRoot, 'examples', 'gpu-taint-typo.yaml');
const args = ['web-0', '-n', 'shop', '--from-dump', example];

describe('output', () => {
  it('--version prints package.json\'s version and exits 0', () => {
    const run = runCli(['--version']);
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    expect(run).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('prints the cause first, then the table, without escape codes when piped', () => {
    const run = runCli(args);
    expect(run.code).toBe(0);
    const first = run.stdout.split('\n')[0] ?? '';
    expect(first).toContain('0 of 5 nodes fit');
    expect(first).toContain('3 nodes carry taint dedicated=gpu:NoSchedule');
    expect(first).toContain('2 nodes have 3000m cpu free in total but at most 1500m on one (pod asks 2000m)');
    expect(run.stdout).not.toContain('\u001b[');
  });

  it("gives the same answer in every locale: an owner's pending pods are taken in a fixed order, not the user's", () => {
    // In Lithuanian `y` sorts between `i` and `j`: localeCompare chose web-abc-y there, web-abc-j elsewhere.
    const owned = (kind: string, name: string, owner?: { kind: string; name: string }) => ({
      apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1',
      kind,
      metadata: { name, namespace: 'shop', uid: `uid-${name}`, ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: owner.kind, name: owner.name, uid: `uid-${owner.name}`, controller: true }] } : {}) },
      ...(kind === 'Pod'
        ? { spec: { schedulerName: 'default-scheduler', containers: [{ name: 'app', image: 'app', resources: { requests: { cpu: '64' } } }] }, status: { phase: 'Pending' } }
        : { spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'app' }] } } } }),
    });
    const items = [
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: { 'kubernetes.io/hostname': 'n1' } }, status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }] } },
      owned('Deployment', 'web'),
      owned('ReplicaSet', 'web-abc', { kind: 'Deployment', name: 'web' }),
      owned('Pod', 'web-abc-y', { kind: 'ReplicaSet', name: 'web-abc' }),
      owned('Pod', 'web-abc-j', { kind: 'ReplicaSet', name: 'web-abc' }),
    ];
    const dump = path.join(mkdtempSync(path.join(os.tmpdir(), 'why-pending-locale-')), 'cluster.json');
    writeFileSync(dump, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    const inLocale = (locale: string) => runCli(['deploy/web', '-n', 'shop', '--from-dump', dump, '-o', 'json'], { env: { LANG: locale, LC_ALL: locale } });
    const english = inLocale('en_US.UTF-8');
    const lithuanian = inLocale('lt_LT.UTF-8');
    expect(english.code).toBe(0);
    expect((JSON.parse(english.stdout) as { pod: { name: string } }).pod.name).toBe('web-abc-j');
    expect(lithuanian.stdout).toBe(english.stdout);
  });

  it('WHY_PENDING_TIMINGS=1 says on stderr where the time went, and changes nothing else', () => {
    const plain = runCli(args, { env: { WHY_PENDING_TIMINGS: '' } });
    const timed = runCli(args, { env: { WHY_PENDING_TIMINGS: '1' } });
    expect(plain.stderr).toBe('');
    expect(timed.code).toBe(0);
    expect(timed.stdout).toBe(plain.stdout);
    expect(timed.stderr).toMatch(/^timings: read \d+\.\d ms \(cpu \d+\.\d ms\), node index \d+\.\d ms \(cpu \d+\.\d ms\), diagnosis \d+\.\d ms \(cpu \d+\.\d ms\), report \d+\.\d ms \(cpu \d+\.\d ms\)\n$/);
    expect(runCli(args, { env: { WHY_PENDING_TIMINGS: '0' } }).stderr).toBe('');
  });

  it('colours when asked, and NO_COLOR does not override --color=always', () => {
    expect(runCli([...args, '--color', 'always']).stdout).toContain('\u001b[');
    expect(runCli([...args, '--color', 'always'], { env: { NO_COLOR: '1' } }).stdout).toContain('\u001b[');
  });

  it('emits the documented JSON', () => {
    const run = runCli([...args, '-o', 'json']);
    const json = parseDiagnosisJson(run.stdout) as { stage: string; pod: { name: string }; nodes: { name: string; fits: boolean; reasons: { plugin: string; code: string; message: string }[] }[]; scheduler: { agrees: boolean; source: string } };
    expect(json.stage).toBe('Unschedulable');
    expect(json.pod.name).toBe('web-0');
    expect(json.nodes.map((n) => [n.name, n.fits, n.reasons[0]?.plugin])).toEqual([
      ['gpu-1', false, 'TaintToleration'],
      ['gpu-2', false, 'TaintToleration'],
      ['gpu-3', false, 'TaintToleration'],
      ['general-1', false, 'NodeResourcesFit'],
      ['general-2', false, 'NodeResourcesFit'],
    ]);
    expect(json.scheduler).toMatchObject({ agrees: true, source: 'condition' });
  });

  it('emits the same data as YAML', () => {
    const asJson = parseDiagnosisJson(runCli([...args, '-o', 'json']).stdout);
    const asYaml = parse(runCli([...args, '-o', 'yaml']).stdout) as unknown;
    expect(asYaml).toEqual(asJson);
  });

  it('reads the dump from stdin', () => {
    const run = runCli(['web-0', '-n', 'shop', '--from-dump', '-', '-o', 'json'], { input: readFileSync(example, 'utf8') });
    expect(run.code).toBe(0);
    expect((parseDiagnosisJson(run.stdout) as { stage: string }).stage).toBe('Unschedulable');
  });

  it('shows help with examples and exits 0', () => {
    const run = runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Examples:');
    expect(run.stdout).toContain('--from-dump');
  });

  it('runs through kubectl plugin lookup', () => {
    const kubectl = spawnSync('kubectl', ['why-pending', ...args, '-o', 'json'], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${path.join(repoRoot, 'bin')}:${process.env['PATH'] ?? ''}` },
    });
    expect(kubectl.stderr).toBe('');
    expect((parseDiagnosisJson(kubectl.stdout) as { stage: string }).stage).toBe('Unschedulable');
  });
});
