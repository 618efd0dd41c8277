// The version the user runs. The release bundle (scripts/release/bundle.ts) writes it in as
// WHY_PENDING_VERSION, since a single executable has no package.json beside it; a clone and an
// npm install read package.json next to the code (dist -> package root, src -> repository root).
import { readFileSync } from 'node:fs';

declare const WHY_PENDING_VERSION: string | undefined;

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

export const toolVersion: string = typeof WHY_PENDING_VERSION === 'string' ? WHY_PENDING_VERSION : packageVersion();
