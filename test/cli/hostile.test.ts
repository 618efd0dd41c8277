// Hostile and malformed input, end to end through the built CLI: terminal controls in a dump
// never reach the terminal raw (CVE-2021-25743's class), a field of the wrong type is exit 3 with
// one line, and a Node.js too old is exit 6 with the fix.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseDiagnosisJson } from '../support/schema.js';
import { cliMain, repoRoot, runCli } from './run.js';

const scenarios = path.join(repoRoot, 'test', 'scenarios');
const unschedulable = ['web-0', '-n', 'shop', '--from-dump', path.join(scenarios, 'hostile-terminal-controls', 'cluster.yaml')];
const scheduled = ['web-0', '-n', 'shop', '--from-dump', path.join(scenarios, 'hostile-terminal-controls-scheduled', 'cluster.yaml')];

const ESC = '\u001b';
const BEL = '\u0007';

/** C0 but line feed (tab and CR included), DEL, C1 (\p{Cc}), bidi controls, line and paragraph separators. */
const forbidden = /(?!\n)[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;
const PALETTE = [31, 32, 33, 39, 1, 22, 2].map((n) => `${ESC}[${n}m`);

/** Bytes a terminal acts on, checked on the raw output before any decoding. */
function forbiddenBytes(bytes: Buffer): number[] {
  return [...bytes].filter((b) => (b < 0x20 && b !== 0x0a) || b === 0x7f);
}

function runBytes(args: string[]): { code: number | null; stdout: Buffer; stderr: Buffer } {
  const result = spawnSync(process.execPath, [cliMain, ...args], { env: { ...process.env, NO_COLOR: '' }, timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('terminal controls from a dump are shown, not obeyed', () => {
  it.each([
    ['an unschedulable pod (labels, taint, annotation, condition, owner event)', unschedulable],
    ['a scheduled pod (waiting message, pod events)', scheduled],
  ])('%s: piped with --color never, stdout holds no control but line feeds', (_name, args) => {
    const run = runBytes([...args, '--color', 'never']);
    expect(run.code).toBe(0);
    expect(forbiddenBytes(run.stdout)).toEqual([]);
    const text = run.stdout.toString('utf8');
    expect(text).not.toMatch(forbidden);
    expect(text).toContain('⟨U+001B⟩');
    expect(text).toContain('⟨U+202E⟩');
    expect(run.stderr.toString('utf8')).toBe('');
  });

  it('with --color always, the only control sequences are the palette colours', () => {
    const run = runCli([...unschedulable, '--color', 'always']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${ESC}[31m`);
    const withoutPalette = PALETTE.reduce((text, seq) => text.split(seq).join(''), run.stdout);
    expect(withoutPalette).not.toMatch(forbidden);
    expect(withoutPalette).toContain('⟨U+001B⟩]0;pwned⟨U+0007⟩');
  });

  it('a message with CR and LF stays on its own line', () => {
    const lines = runCli([...scheduled, '--color', 'never']).stdout.split('\n');
    const waiting = lines.filter((l) => l.includes('CreateContainerConfigError: '));
    expect(waiting).toEqual(['  init container setup: CreateContainerConfigError: ⟨U+001B⟩[31mred⟨U+001B⟩[0m⟨U+000D⟩⟨U+000A⟩line two⟨U+202E⟩exe.sh']);
  });

  it('-o json keeps the exact strings, with no control written raw', () => {
    const run = runCli([...unschedulable, '-o', 'json']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(forbidden);
    const json = parseDiagnosisJson(run.stdout) as { scheduler: { message: string }; nodes: { reasons: { taint?: { value: string } }[] }[]; ownerEvents: { message: string }[] };
    expect(json.scheduler.message).toBe(`0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s).${ESC}]0;pwned${BEL}${ESC}[2J\rall good\u202Etxt.exe`);
    expect(json.nodes[1]?.reasons[0]?.taint?.value).toBe('gpu\u202Eevil');
    expect(json.ownerEvents[0]?.message).toBe(`${ESC}]0;owned${BEL}${ESC}[2J\rnothing to see\u2066here\u2069\u0085`);
  });

  it('-o yaml holds the same data as -o json, with no control written raw', () => {
    for (const args of [unschedulable, scheduled]) {
      const yaml = runCli([...args, '-o', 'yaml']);
      expect(yaml.code).toBe(0);
      expect(yaml.stdout).not.toMatch(forbidden);
      expect(parse(yaml.stdout)).toEqual(parseDiagnosisJson(runCli([...args, '-o', 'json']).stdout));
    }
  });

  it('an error naming a hostile pod name is one escaped line on stderr', () => {
    const run = runCli([`web${ESC}]0;pwned${BEL}\r`, '-n', 'shop', '--from-dump', path.join(scenarios, 'hostile-terminal-controls', 'cluster.yaml')]);
    expect(run.code).toBe(4);
    expect(run.stderr.startsWith('error: pod "web⟨U+001B⟩]0;pwned⟨U+0007⟩⟨U+000D⟩" not found in namespace "shop"')).toBe(true);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr.replace(/\n$/, '')).not.toMatch(forbidden);
  });
});

describe('malformed field types are input errors', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'why-pending-hostile-'));
  const dump = (name: string, text: string) => {
    const file = path.join(scratch, name);
    writeFileSync(file, text);
    return file;
  };

  it.each([
    {
      name: 'spec.containers: "oops"',
      text: 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: n1}\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: web-0, namespace: shop}\n  spec:\n    containers: "oops"\n',
      stderr: 'error: {file}, item 2: Pod shop/web-0: spec.containers must be a list, found a string ("oops"); fix the dump or capture it again with kubectl get -o yaml\n',
    },
    {
      name: 'a node label written as a number',
      text: 'apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels: {tier: 1}\n',
      stderr: 'error: {file}: Node n1: metadata.labels.tier must be a string, found a number (1); fix the dump or capture it again with kubectl get -o yaml\n',
    },
    {
      name: 'a taint list that is a map',
      text: '{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}, "spec": {"taints": {"key": "gpu"}}}',
      stderr: 'error: {file}: Node n1: spec.taints must be a list, found a map; fix the dump or capture it again with kubectl get -o yaml\n',
    },
  ])('$name: exit 3, one line naming the object and the field, no stack trace', ({ name, text, stderr }) => {
    const file = dump(`${name.replace(/\W+/g, '-')}.yaml`, text);
    const run = runCli(['web-0', '-n', 'shop', '--from-dump', file]);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(stderr.replace('{file}', file));
    expect(run.stdout).toBe('');
  });
});

// The machine's other Node.js binaries, oldest first: one older than 22.12, if any, runs main.js.
function oldNode(): { binary: string; version: string } | undefined {
  const candidates = new Set<string>(['/usr/bin/node', '/usr/local/bin/node', '/bin/node']);
  try {
    for (const line of execFileSync('which', ['-a', 'node'], { encoding: 'utf8' }).split('\n')) if (line.trim()) candidates.add(line.trim());
  } catch {
    // no `which`: the fixed places are enough
  }
  for (const binary of candidates) {
    if (!existsSync(binary)) continue;
    const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
    const version = result.stdout?.trim() ?? '';
    const [major = 99, minor = 99] = version.replace(/^v/, '').split('.').map(Number);
    if (result.status === 0 && (major < 22 || (major === 22 && minor < 12))) return { binary, version };
  }
  return undefined;
}

describe('a Node.js older than 22.12', () => {
  const old = oldNode();
  const name = old
    ? `exits 6 with one line saying what was found and how to fix it (${old.binary}, ${old.version})`
    : 'SKIPPED: no Node.js older than 22.12 on this machine (looked on PATH and in /usr/bin, /usr/local/bin, /bin); checkNodeVersion is unit-tested instead';
  it.skipIf(!old)(name, () => {
    if (!old) return;
    const result = spawnSync(old.binary, [cliMain, 'web-0', '--from-dump', path.join(repoRoot, 'examples', 'gpu-taint-typo.yaml')], { encoding: 'utf8' });
    expect(result.status).toBe(6);
    expect(result.stderr).toBe(
      `error: kubectl why-pending needs Node.js 22.12 or newer, found ${old.version}; install a current Node.js LTS (https://nodejs.org) and make it the first node on PATH\n`,
    );
    expect(result.stdout).toBe('');
  });

  it('the README and --help document exit code 6', () => {
    expect(readFileSync(path.join(repoRoot, 'README.md'), 'utf8')).toMatch(/\| 6 \| the environment cannot run the tool: a Node\.js older than 22\.12/);
    expect(runCli(['--help']).stdout).toContain('6 Node.js too old');
  });
});
