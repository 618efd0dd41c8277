// The launcher (bin/kubectl-why_pending -> dist/cli/launch.js) runs the CLI's bundle with V8's
// code cache of earlier runs: the same answers as the modules, a cache written once a run has
// covered a path, kept while later runs cover nothing new, and a torn, altered or foreign cache
// ignored and replaced, never a crash.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { codeCacheDir } from '../../src/cli/codeCache.js';
import { repoRoot, runCli } from './run.js';

const launcher = path.join(repoRoot, 'bin', 'kubectl-why_pending');
const example = path.join(repoRoot, 'examples', 'gpu-taint-typo.yaml');
const args = ['web-0', '-n', 'shop', '--from-dump', example];

function launch(cacheDir: string, extra: string[] = [], env: Record<string, string> = {}) {
  const run = spawnSync(launcher, [...args, ...extra], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '', WHY_PENDING_CODE_CACHE: cacheDir, WHY_PENDING_TIMINGS: '1', ...env }, timeout: 30_000 });
  const timings = run.stderr.split('\n').find((l) => l.startsWith('timings: ')) ?? '';
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, cache: /code cache (\w+)/.exec(timings)?.[1] };
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.v8cache'));

function header(dir: string): { covered: string[]; length: number } {
  const [file] = cacheFiles(dir);
  const raw = readFileSync(path.join(dir, file ?? ''));
  return JSON.parse(raw.subarray(0, raw.indexOf(0x0a)).toString('utf8')) as { covered: string[]; length: number };
}

const freshDir = () => mkdtempSync(path.join(os.tmpdir(), 'why-pending-code-cache-'));

describe('the code cache', () => {
  it('answers as the modules do, writes the cache after the first run and reads it after', () => {
    const dir = freshDir();
    const modules = runCli([...args, '-o', 'json']);
    const first = launch(dir, ['-o', 'json']);
    expect(first).toMatchObject({ code: 0, cache: 'absent' });
    expect(first.stdout).toBe(modules.stdout);
    expect(cacheFiles(dir)).toHaveLength(1);
    expect(header(dir).covered).toEqual(expect.arrayContaining(['pod', 'dump', 'json', 'stage:Unschedulable', 'reason:TaintToleration']));
    const before = readFileSync(path.join(dir, cacheFiles(dir)[0] ?? ''));
    const second = launch(dir, ['-o', 'json']);
    expect(second).toMatchObject({ code: 0, cache: 'accepted', stdout: modules.stdout });
    // Nothing new covered: the cache is kept as it was.
    expect(readFileSync(path.join(dir, cacheFiles(dir)[0] ?? ''))).toEqual(before);
  });

  it('is written again, as a union, when a run takes a path the cache lacks', () => {
    const dir = freshDir();
    launch(dir, ['-o', 'json']);
    const yaml = launch(dir, ['-o', 'yaml']);
    expect(yaml).toMatchObject({ code: 0, cache: 'accepted' });
    expect(header(dir).covered).toEqual(expect.arrayContaining(['json', 'yaml', 'pod', 'dump']));
    expect(launch(dir, ['-o', 'yaml']).cache).toBe('accepted');
  });

  it.each([
    ['a torn file', (raw: Buffer) => raw.subarray(0, Math.floor(raw.length / 2))],
    ['a changed byte', (raw: Buffer) => Buffer.concat([raw.subarray(0, raw.length - 10), Buffer.from([raw[raw.length - 10]! ^ 0xff]), raw.subarray(raw.length - 9)])],
    ['a header that is not ours', (raw: Buffer) => Buffer.concat([Buffer.from('{"v":99}\n'), raw.subarray(raw.indexOf(0x0a) + 1)])],
    ['V8 data it refuses, behind a header that checks out', () => {
      const junk = Buffer.alloc(4096, 7);
      return Buffer.concat([Buffer.from(`${JSON.stringify({ v: 1, crc: zlib.crc32(junk) >>> 0, length: junk.length, covered: ['pod'] })}\n`), junk]);
    }],
  ])('ignores %s, answers all the same, and writes a good one', (_what, spoil) => {
    const dir = freshDir();
    const good = launch(dir, ['-o', 'json']);
    const file = path.join(dir, cacheFiles(dir)[0] ?? '');
    writeFileSync(file, spoil(readFileSync(file)));
    const spoilt = launch(dir, ['-o', 'json']);
    expect(spoilt).toMatchObject({ code: 0, cache: 'rejected', stdout: good.stdout });
    expect(spoilt.stderr).not.toMatch(/error|Error/);
    expect(launch(dir, ['-o', 'json']).cache).toBe('accepted');
  });

  it('ignores a cache file others can write, and writes its own in its place', () => {
    const dir = freshDir();
    const good = launch(dir, ['-o', 'json']);
    const file = path.join(dir, cacheFiles(dir)[0] ?? '');
    chmodSync(file, 0o666);
    expect(launch(dir, ['-o', 'json'])).toMatchObject({ code: 0, cache: 'rejected', stdout: good.stdout });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(launch(dir, ['-o', 'json']).cache).toBe('accepted');
  });

  it('WHY_PENDING_CODE_CACHE=off: no cache read or written', () => {
    const dir = freshDir();
    const run = launch('off', ['-o', 'json'], { HOME: dir, XDG_CACHE_HOME: dir });
    expect(run).toMatchObject({ code: 0, cache: 'off' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a folder it cannot write only means no cache', () => {
    const dir = freshDir();
    const blocked = path.join(dir, 'not-a-folder');
    writeFileSync(blocked, '');
    const run = launch(path.join(blocked, 'cache'), ['-o', 'json']);
    expect(run).toMatchObject({ code: 0, cache: 'absent' });
    expect(run.stderr).not.toMatch(/error|Error/);
  });

  it('a run that fails writes no cache', () => {
    const dir = freshDir();
    const run = spawnSync(launcher, ['no-such-pod', '-n', 'shop', '--from-dump', example], { encoding: 'utf8', env: { ...process.env, WHY_PENDING_CODE_CACHE: dir } });
    expect(run.status).toBe(4);
    expect(cacheFiles(dir)).toEqual([]);
  });

  it('lives in the XDG cache folder, else ~/.cache, and follows WHY_PENDING_CODE_CACHE', () => {
    expect(codeCacheDir({ HOME: '/home/u' })).toBe('/home/u/.cache/why-pending/code-cache');
    expect(codeCacheDir({ HOME: '/home/u', XDG_CACHE_HOME: '/xdg' })).toBe('/xdg/why-pending/code-cache');
    expect(codeCacheDir({ HOME: '/home/u', WHY_PENDING_CODE_CACHE: '/elsewhere' })).toBe('/elsewhere');
    expect(codeCacheDir({ HOME: '/home/u', WHY_PENDING_CODE_CACHE: 'off' })).toBeUndefined();
    expect(codeCacheDir({ LOCALAPPDATA: '/appdata' })).toBe(path.join('/appdata', 'why-pending', 'code-cache'));
    expect(codeCacheDir({})).toBeUndefined();
  });

  it('keeps its files to the owner', () => {
    const dir = path.join(freshDir(), 'nested');
    mkdirSync(path.dirname(dir), { recursive: true });
    launch(dir, ['-o', 'json']);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, cacheFiles(dir)[0] ?? '')).mode & 0o777).toBe(0o600);
  });
});
