// The npm route, for people who have Node.js: `npm pack`, then `npm install -g` of the tarball,
// then `kubectl why-pending` from the prefix's bin (with the pinned Node.js as the node on PATH).
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../cli/run.js';
import { removeTemporaries, runWithPath, temporary, toolsWithoutNode } from './tools.js';

afterAll(removeTemporaries);

const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let tarball: string;
let prefix: string;
let pathDirs: string[];

beforeAll(() => {
  const dir = temporary('pack');
  execFileSync(npm, ['pack', '--pack-destination', dir, '--silent'], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  tarball = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz')) ?? 'none.tgz');
  prefix = temporary('prefix');
  execFileSync(npm, ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', tarball], { stdio: ['ignore', 'ignore', 'inherit'] });
  // The node the package runs on: the pinned one (the system's may be older than 22.12).
  pathDirs = [path.join(prefix, 'bin'), path.join(repoRoot, 'node_modules', 'node', 'bin'), toolsWithoutNode()];
});

describe('npm pack + npm install -g', () => {
  it('packs the launcher, the completion helper, the built code, the schema and LICENSE, and no build info', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(files).toEqual(
      expect.arrayContaining(['package/bin/kubectl-why_pending', 'package/bin/kubectl_complete-why_pending', 'package/dist/cli/main.js', 'package/schema/diagnosis.v1.json', 'package/LICENSE']),
    );
    expect(files.filter((f) => f.includes('tsbuildinfo') || f.startsWith('package/src/') || f.startsWith('package/test/'))).toEqual([]);
  });

  it("runs as kubectl why-pending: --version is package.json's", () => {
    expect(runWithPath('kubectl', ['why-pending', '--version'], pathDirs)).toMatchObject({ status: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('diagnoses from a dump', () => {
    const ran = runWithPath('kubectl', ['why-pending', '--from-dump', 'examples/gpu-taint-typo.yaml', '-n', 'shop', 'web-0', '-o', 'json'], pathDirs);
    expect(ran.stderr).toBe('');
    expect(JSON.parse(ran.stdout)).toMatchObject({ version: pkg.version, stage: 'Unschedulable', counts: { nodes: 5, fitting: 0 } });
  });

  it('puts kubectl_complete-why_pending on PATH, so kubectl completes the plugin', () => {
    expect(spawnSync('sh', ['-c', `test -x "${path.join(prefix, 'bin', 'kubectl_complete-why_pending')}"`]).status).toBe(0);
    expect(runWithPath('kubectl', ['__complete', 'why-pending', '-o', ''], pathDirs).stdout).toBe('human\nwide\njson\nyaml\nmarkdown\n:4\n');
  });
});
