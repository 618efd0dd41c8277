// Node.js binaries from the npm registry's per-platform packages, downloaded once with `npm pack`
// and kept in the cache by package and version (~/.cache/why-pending/node/<package>@<version>).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { cacheRoot } from './cache.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function npmJson(args: string[]): unknown {
  return JSON.parse(execFileSync(npm, [...args, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
}

const semver = (v: string): number[] => v.split('.').map(Number);
const newer = (a: string, b: string): number => {
  const [x, y] = [semver(a), semver(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};

/**
 * The version of `pkg` to use: `wanted` when the package publishes it, else the newest release of
 * the same major (not every platform package is published for every Node.js release).
 */
export function resolveVersion(pkg: string, wanted: string): string {
  const published = npmJson(['view', pkg, 'versions']) as string[];
  if (published.includes(wanted)) return wanted;
  const major = wanted.split('.')[0];
  const same = published.filter((v) => /^\d+\.\d+\.\d+$/.test(v) && v.split('.')[0] === major).sort(newer);
  const best = same.at(-1);
  if (!best) throw new Error(`${pkg} publishes no Node.js ${major}.x (wanted ${wanted})`);
  return best;
}

/** The path of node (node.exe) from `pkg@version`, downloaded into the cache if not there yet. */
export function nodeBinary(pkg: string, version: string, exe: string): string {
  const dir = path.join(cacheRoot(), 'node', `${pkg}@${version}`);
  const binary = path.join(dir, 'package', 'bin', `node${exe}`);
  if (existsSync(binary)) return binary;
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  process.stderr.write(`downloading ${pkg}@${version} from the npm registry...\n`);
  execFileSync(npm, ['pack', `${pkg}@${version}`, '--pack-destination', tmp, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${pkg}@${version} wrote no tarball`);
  execFileSync('tar', ['-xzf', tarball], { cwd: tmp });
  rmSync(path.join(tmp, tarball));
  if (!existsSync(path.join(tmp, 'package', 'bin', `node${exe}`))) throw new Error(`${pkg}@${version} holds no bin/node${exe}`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return binary;
}
