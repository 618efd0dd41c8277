// The single executable's main script (scripts/release/sea.ts): the CLI's bundle travels as one
// of its assets and runs as the plugin's launcher runs it (launch.ts), with V8's code cache of
// earlier runs (codeCache.ts). The executable carries its own Node.js: no version to check.
// Everything is bundled, so the bundle's require needs only Node's own modules.
import { createRequire } from 'node:module';
import { getAsset } from 'node:sea';
import { codeCacheDir, launch, runBundle, seaBundleAsset as bundleAsset } from './codeCache.js';

void launch(() => runBundle({ bytes: new Uint8Array(getAsset(bundleAsset)), filename: bundleAsset, require: createRequire(process.execPath) }, codeCacheDir(process.env)));
