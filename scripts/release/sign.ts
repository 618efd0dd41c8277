// macOS runs only signed code on Apple silicon, and injecting the blob breaks the signature the
// node binary came with. An ad-hoc signature (what `codesign --sign -` makes) is enough; off a
// Mac, rcodesign (the apple-codesign crate) makes it when found on PATH or in the cache.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { cacheRoot } from './cache.js';

function signer(): string | undefined {
  const cached = path.join(cacheRoot(), 'rcodesign', 'bin', 'rcodesign');
  if (existsSync(cached)) return cached;
  const found = spawnSync('rcodesign', ['--version'], { stdio: 'ignore' });
  return found.status === 0 ? 'rcodesign' : undefined;
}

/** True when signed; false when no signer is available here (the archive then says so). */
export function adHocSign(file: string): boolean {
  if (process.platform === 'darwin') {
    execFileSync('codesign', ['--sign', '-', '--force', file], { stdio: 'inherit' });
    return true;
  }
  const rcodesign = signer();
  if (!rcodesign) return false;
  execFileSync(rcodesign, ['sign', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  return true;
}
