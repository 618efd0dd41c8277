// A release archive: tar.gz (krew reads it on every platform, Windows' own tar too) of a staging
// folder, files sorted, owned by root, dated SOURCE_DATE_EPOCH, gzip without a timestamp, so the
// same inputs give the same bytes and the same sha256.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export function tarGz(dir: string, files: readonly string[], out: string, epoch: number): void {
  const tar = execFileSync(
    'tar',
    ['--create', '--format=ustar', '--sort=name', '--owner=0', '--group=0', '--numeric-owner', `--mtime=@${epoch}`, '--file=-', ...files],
    { cwd: dir, maxBuffer: 1 << 30 },
  );
  writeFileSync(out, gzipSync(tar, { level: 9 }));
}

/** Lowercase hex, as krew's manifest wants it. */
export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
