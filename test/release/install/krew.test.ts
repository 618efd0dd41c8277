// The krew route, with krew itself (v0.4.3, built from its Go module): the release's manifest
// passes krew's own validator, every archive installs from it, and the linux/amd64 one runs as
// `kubectl why-pending` with no Node.js anywhere on PATH.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sha256 } from '../../../scripts/release/archive.js';
import { platformName, platforms } from '../../../scripts/release/platforms.js';
import { repoRoot } from '../../cli/run.js';
import { buildRelease, krewTools, removeTemporaries, runWithPath, temporary, toolsWithoutNode } from './tools.js';

afterAll(removeTemporaries);

interface Manifest {
  metadata: { name: string };
  spec: {
    version: string;
    shortDescription: string;
    platforms: { selector: { matchLabels: { os: string; arch: string } }; uri: string; sha256: string; bin: string; files: { from: string; to: string }[] }[];
  };
}

const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
let release: string;
let krew: string;
let manifest: Manifest;
let tools: string;

beforeAll(() => {
  krew = krewTools();
  release = buildRelease();
  manifest = parse(readFileSync(path.join(release, 'krew-manifest.yaml'), 'utf8')) as Manifest;
  tools = toolsWithoutNode();
});

const archiveOf = (os: string, arch: string) => path.join(release, `kubectl-why_pending_v${pkg.version}_${os}_${arch}.tar.gz`);

/** `krew install --manifest --archive` into a new KREW_ROOT, as krew would on that platform. */
function install(os_: string, arch: string): { root: string; ran: ReturnType<typeof spawnSync> } {
  const root = temporary('krew');
  const ran = spawnSync(path.join(krew, 'krew'), ['install', `--manifest=${path.join(release, 'krew-manifest.yaml')}`, `--archive=${archiveOf(os_, arch)}`], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', HOME: root, KREW_ROOT: root, KREW_OS: os_, KREW_ARCH: arch },
  });
  return { root, ran };
}

describe('the krew manifest', () => {
  it("passes krew's validate-krew-manifest (structure, selectors, no overlap)", () => {
    // The validator takes the plugin's name from the file's name, as the krew index names files.
    const dir = temporary('manifest');
    copyFileSync(path.join(release, 'krew-manifest.yaml'), path.join(dir, `${manifest.metadata.name}.yaml`));
    const ran = spawnSync(path.join(krew, 'validate-krew-manifest'), ['-manifest', path.join(dir, `${manifest.metadata.name}.yaml`), '-skip-install'], { encoding: 'utf8' });
    expect(ran.stderr).toContain('no overlapping spec.platform[].selector');
    expect(ran.status).toBe(0);
  });

  it("names package.json's version, and each archive by its release URL and real sha256", () => {
    expect(manifest.metadata.name).toBe('why-pending');
    expect(manifest.spec.version).toBe(`v${pkg.version}`);
    expect(manifest.spec.platforms.map((p) => `${p.selector.matchLabels.os}_${p.selector.matchLabels.arch}`)).toEqual(platforms.map(platformName));
    for (const p of manifest.spec.platforms) {
      const file = path.basename(archiveOf(p.selector.matchLabels.os, p.selector.matchLabels.arch));
      expect(p.uri).toBe(`https://github.com/why-pending/kubectl-why-pending/releases/download/v${pkg.version}/${file}`);
      expect(p.sha256).toBe(sha256(path.join(release, file)));
      expect(p.bin).toBe(p.selector.matchLabels.os === 'windows' ? 'kubectl-why_pending.exe' : 'kubectl-why_pending');
    }
  });

  it('a second build gives the same bytes, so a sha256 can be published before the archive is rebuilt', () => {
    const again = buildRelease(['linux_amd64']);
    const file = path.basename(archiveOf('linux', 'amd64'));
    expect(sha256(path.join(again, file))).toBe(sha256(path.join(release, file)));
  });

  it('the committed krew-manifest.yaml is the same document but for the sha256 (they change with every build of new code)', () => {
    const committed = parse(readFileSync(path.join(repoRoot, 'krew-manifest.yaml'), 'utf8')) as Manifest;
    const withoutSums = (m: Manifest) => ({ ...m, spec: { ...m.spec, platforms: m.spec.platforms.map((p) => ({ ...p, sha256: '' })) } });
    expect(withoutSums(committed)).toEqual(withoutSums(manifest));
    for (const p of committed.spec.platforms) expect(p.sha256).toMatch(/^(?!0{64})[0-9a-f]{64}$/);
  });
});

describe('a custom index', () => {
  it('krew index add takes a git repository holding plugins/why-pending.yaml; search shows the whole short description', () => {
    const index = temporary('index');
    mkdirSync(path.join(index, 'plugins'));
    copyFileSync(path.join(release, 'krew-manifest.yaml'), path.join(index, 'plugins', 'why-pending.yaml'));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', ...args], { cwd: index, stdio: 'ignore' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'index');
    const root = temporary('krew');
    const env = { PATH: process.env['PATH'] ?? '', HOME: root, KREW_ROOT: root };
    expect(spawnSync(path.join(krew, 'krew'), ['index', 'add', 'why-pending', index], { env, encoding: 'utf8' }).status).toBe(0);
    const search = spawnSync(path.join(krew, 'krew'), ['search', 'why-pending'], { env, encoding: 'utf8' });
    expect(search.stdout).toMatch(new RegExp(`^why-pending/why-pending +${manifest.spec.shortDescription} +no$`, 'm'));
  });
});

describe('krew install --manifest --archive', () => {
  it.each(platforms.map((p) => [p.os, p.arch]))('installs the %s/%s archive: the executable, the completion helper and LICENSE', (os_, arch) => {
    const { root, ran } = install(os_, arch);
    expect(ran.stderr).toContain('Installed plugin: why-pending');
    expect(ran.status).toBe(0);
    const store = path.join(root, 'store', 'why-pending', `v${pkg.version}`);
    const exe = os_ === 'windows' ? '.exe' : '';
    expect(readdirSync(store).sort()).toEqual(['LICENSE', `kubectl-why_pending${exe}`, `kubectl_complete-why_pending${os_ === 'windows' ? '.cmd' : ''}`].sort());
    expect(existsSync(path.join(root, 'bin', `kubectl-why_pending${exe}`))).toBe(true);
  });

  describe('linux/amd64, with only kubectl and krew on PATH (no Node.js)', () => {
    let root: string;
    let pathDirs: string[];
    beforeAll(() => {
      if (os.platform() !== 'linux' || os.arch() !== 'x64') return;
      root = install('linux', 'amd64').root;
      pathDirs = [path.join(root, 'bin'), tools];
    });
    const here = os.platform() === 'linux' && os.arch() === 'x64';

    it.runIf(here)('there is no node to find', () => {
      expect(runWithPath('/bin/sh', ['-c', 'command -v node || echo none'], pathDirs).stdout.trim()).toBe('none');
    });

    it.runIf(here)("kubectl why-pending --version prints package.json's version", () => {
      expect(runWithPath('kubectl', ['why-pending', '--version'], pathDirs)).toMatchObject({ status: 0, stdout: `${pkg.version}\n`, stderr: '' });
    });

    it.runIf(here)('kubectl why-pending diagnoses from a dump', () => {
      const ran = runWithPath('kubectl', ['why-pending', '--from-dump', 'examples/gpu-taint-typo.yaml', '-n', 'shop', 'web-0'], pathDirs);
      expect(ran.stderr).toBe('');
      expect(ran.status).toBe(0);
      expect(ran.stdout).toContain('Pod shop/web-0 cannot be scheduled. 0 of 5 nodes fit');
      const json = runWithPath('kubectl', ['why-pending', '--from-dump', 'examples/gpu-taint-typo.yaml', '-n', 'shop', 'web-0', '-o', 'json'], pathDirs);
      expect(JSON.parse(json.stdout)).toMatchObject({ apiVersion: 'whypending/v1', version: pkg.version, stage: 'Unschedulable' });
    });

    it.runIf(here)("keeps V8's code cache of a run for the next (src/cli/codeCache.ts), with the same answer", () => {
      const env = { WHY_PENDING_CODE_CACHE: temporary('code-cache'), WHY_PENDING_TIMINGS: '1' };
      const diagnose = () => runWithPath('kubectl', ['why-pending', '--from-dump', 'examples/gpu-taint-typo.yaml', '-n', 'shop', 'web-0', '-o', 'json'], pathDirs, env);
      const [first, second] = [diagnose(), diagnose()];
      expect(first).toMatchObject({ status: 0, stderr: expect.stringMatching(/^timings: load [\d.]+ ms \(cpu [\d.]+ ms\), code cache absent, read /) });
      expect(second).toMatchObject({ status: 0, stdout: first.stdout, stderr: expect.stringMatching(/, code cache accepted, /) });
    });

    it.runIf(here)("kubectl completes the plugin's flags once the helper is copied as the caveats say", () => {
      const kubectlOnly = runWithPath('kubectl', ['__complete', 'why-pending', '--output=j'], pathDirs);
      expect(kubectlOnly.stdout).not.toContain('--output=json');
      copyFileSync(path.join(root, 'store', 'why-pending', `v${pkg.version}`, 'kubectl_complete-why_pending'), path.join(root, 'bin', 'kubectl_complete-why_pending'));
      const ran = runWithPath('kubectl', ['__complete', 'why-pending', '--output=j'], pathDirs);
      expect(ran.stdout).toBe('--output=json\n:4\n');
    });
  });
});
