// A single executable: a copy of the platform's node binary with the bundle injected as a Node
// SEA blob (https://nodejs.org/api/single-executable-applications.html). The blob is written by
// a node of the same version as the target binary (the format is tied to the version, not the
// platform, once snapshot and code cache are off), running on this machine.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'postject';
import { nodeFlags } from '../../src/cli/node-flags.js';

/** The fuse string Node looks for to know a blob was injected (Node's docs, postject's README). */
const fuse = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * The blob for `main`, written beside it, with `assets` (name -> file, beside it too) inside.
 * Paths are given relative to that folder: the blob records the script's name as given, so an
 * absolute path would differ from build to build (and show the build machine's folders in stack
 * traces). V8's code cache is made at run time instead (src/cli/codeCache.ts): one made here
 * would hold this machine's architecture.
 */
export function seaBlob(hostNode: string, main: string, blob: string, assets: Record<string, string> = {}): void {
  const dir = path.dirname(main);
  for (const file of [blob, ...Object.values(assets)]) if (path.dirname(file) !== dir) throw new Error(`${file} must be beside ${main} for its SEA blob`);
  const config = `${path.basename(blob)}.json`;
  // execArgv: the flags bin/kubectl-why_pending starts node with (src/cli/node-flags.ts).
  const settings = {
    main: path.basename(main),
    output: path.basename(blob),
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    useCodeCache: false,
    execArgv: [...nodeFlags],
    assets: Object.fromEntries(Object.entries(assets).map(([name, file]) => [name, path.basename(file)])),
  };
  writeFileSync(path.join(dir, config), JSON.stringify(settings, null, 2));
  execFileSync(hostNode, ['--experimental-sea-config', config], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
}

export async function singleExecutable(nodeBinary: string, blob: string, out: string, os: string): Promise<void> {
  copyFileSync(nodeBinary, out);
  chmodSync(out, 0o755);
  await inject(out, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: fuse,
    ...(os === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
  });
}
