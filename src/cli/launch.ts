// What bin/kubectl-why_pending runs: the CLI's bundle (dist/kubectl-why_pending.cjs) with V8's
// code cache of earlier runs (codeCache.ts), written when a run covered a path the cache lacks.
// Its own static imports are dependency-free, so that the Node.js version is checked before
// anything else is loaded (see node-version.ts).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { codeCacheDir, launch, loadBundle } from './codeCache.js';
import { exitCodes } from './exit-codes.js';
import { checkNodeVersion } from './node-version.js';

const tooOld = checkNodeVersion(process.version);
if (tooOld) {
  process.stderr.write(`error: ${tooOld}\n`);
  process.exit(exitCodes.environment);
}

const bundle = fileURLToPath(new URL('../kubectl-why_pending.cjs', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write(`error: ${bundle} is missing: the build is incomplete; run \`npm run build\` in the checkout (or reinstall the package)\n`);
  process.exit(exitCodes.environment);
}
await launch(() => loadBundle(bundle, codeCacheDir(process.env)));
