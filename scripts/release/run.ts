// `npm run release [-- --platform linux_amd64 ...] [--out DIR]`: the release archives, one per
// platform, each holding a single executable (no Node.js needed), the completion helper and
// LICENSE; then krew-manifest.yaml with their sha256. See README, Installation.
//
// release/kubectl-why_pending_v<version>_<os>_<arch>.tar.gz
// release/krew-manifest.yaml          (the platforms built; copied to ./krew-manifest.yaml when
//                                     every platform was built)
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { tarGz, sha256 } from './archive.js';
import { bundle } from './bundle.js';
import { krewManifest, type BuiltArchive } from './manifest.js';
import { nodeBinary, resolveVersion } from './node-binaries.js';
import { hostPackage, platformName, platforms } from './platforms.js';
import { seaBlob, singleExecutable } from './sea.js';
import { seaBundleAsset } from '../../src/cli/codeCache.js';
import { adHocSign } from './sign.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const { values } = parseArgs({ options: { platform: { type: 'string', multiple: true }, out: { type: 'string' } } });
const out = path.resolve(values.out ?? path.join(root, 'release'));
const wanted = values.platform ?? platforms.map(platformName);
const unknown = wanted.filter((w) => !platforms.some((p) => platformName(p) === w));
if (unknown.length > 0) throw new Error(`unknown platform ${unknown.join(', ')}; known: ${platforms.map(platformName).join(', ')}`);
const chosen = platforms.filter((p) => wanted.includes(platformName(p)));

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const pkg = readJson(path.join(root, 'package.json')) as { version: string; homepage: string; repository: { url: string } };
const pinnedNode = (readJson(path.join(root, 'node_modules', 'node', 'package.json')) as { version: string }).version;
const repository = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
// Archives are dated, not timestamped at build time, so that a rebuild gives the same sha256.
const epoch = Number(process.env['SOURCE_DATE_EPOCH'] ?? 0);

const build = path.join(out, 'build');
rmSync(out, { recursive: true, force: true });
mkdirSync(build, { recursive: true });

// The executable's main script is the launcher (src/cli/sea.ts); the CLI, bundled whole, is its
// asset, run with V8's code cache of earlier runs as the plugin from a checkout is.
const script = path.join(build, seaBundleAsset);
await bundle(path.join(root, 'src', 'cli', 'bundle.ts'), script, pkg.version);
const seaMain = path.join(build, 'sea-main.cjs');
await bundle(path.join(root, 'src', 'cli', 'sea.ts'), seaMain, pkg.version);

const blobs = new Map<string, string>();
function blobFor(nodeVersion: string): string {
  let blob = blobs.get(nodeVersion);
  if (!blob) {
    blob = path.join(build, `sea-${nodeVersion}.blob`);
    const host = `v${nodeVersion}` === process.version ? process.execPath : nodeBinary(hostPackage(), nodeVersion, process.platform === 'win32' ? '.exe' : '');
    seaBlob(host, seaMain, blob, { [seaBundleAsset]: script });
    blobs.set(nodeVersion, blob);
  }
  return blob;
}

const built: (BuiltArchive & { nodeVersion: string; signed?: boolean })[] = [];
for (const platform of chosen) {
  const nodeVersion = resolveVersion(platform.nodePackage, pinnedNode);
  const stage = path.join(build, platformName(platform));
  mkdirSync(stage, { recursive: true });
  const bin = `kubectl-why_pending${platform.exe}`;
  await singleExecutable(nodeBinary(platform.nodePackage, nodeVersion, platform.exe), blobFor(nodeVersion), path.join(stage, bin), platform.os);
  const signed = platform.os === 'darwin' ? adHocSign(path.join(stage, bin)) : undefined;
  let completion = 'kubectl_complete-why_pending';
  if (platform.os === 'windows') {
    completion += '.cmd';
    writeFileSync(path.join(stage, completion), '@echo off\r\n"%~dp0kubectl-why_pending.exe" __complete %*\r\n');
  } else {
    copyFileSync(path.join(root, 'bin', completion), path.join(stage, completion));
  }
  copyFileSync(path.join(root, 'LICENSE'), path.join(stage, 'LICENSE'));
  const file = `kubectl-why_pending_v${pkg.version}_${platformName(platform)}.tar.gz`;
  tarGz(stage, [bin, completion, 'LICENSE'], path.join(out, file), epoch);
  built.push({ platform, file, sha256: sha256(path.join(out, file)), bin, completion, nodeVersion, ...(signed !== undefined ? { signed } : {}) });
  process.stderr.write(`built ${file}\n`);
}

const manifest = krewManifest({ version: pkg.version, homepage: pkg.homepage, repository }, built);
writeFileSync(path.join(out, 'krew-manifest.yaml'), manifest);
if (chosen.length === platforms.length && values.out === undefined) writeFileSync(path.join(root, 'krew-manifest.yaml'), manifest);

const mb = (file: string) => `${(statSync(file).size / 1e6).toFixed(1)} MB`;
for (const a of built) {
  const notes = [`node ${a.nodeVersion}${a.nodeVersion === pinnedNode ? '' : ` (${a.platform.nodePackage} publishes no ${pinnedNode})`}`];
  if (a.signed === false) notes.push('NOT SIGNED: run `codesign --sign - kubectl-why_pending` on a Mac before use (no rcodesign here)');
  if (a.signed) notes.push('ad-hoc signed');
  process.stdout.write(`${a.file}  ${mb(path.join(out, a.file))}  sha256 ${a.sha256}  ${notes.join('; ')}\n`);
}
