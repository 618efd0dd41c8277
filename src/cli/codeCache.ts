// The CLI diagnoses one pod per process, so V8 compiles every function it runs anew each time:
// Node's compile cache (module.enableCompileCache) keeps only what V8 compiles when a module
// loads, the top level, and none of the functions compiled lazily while the engine runs (about
// 300 in a diagnosis, a fifth of its first run's time). This loader runs the CLI's bundle (one
// CommonJS file, dist/kubectl-why_pending.cjs) through vm.Script and, once a run has done its
// work, keeps V8's code cache of everything that run compiled (ScriptCompiler::CreateCodeCache
// after execution, as Chrome caches scripts since V8 6.6), so later runs start from bytecode.
//
// The cache is one file per bundle and Node.js: its name holds the bundle's CRC-32 and length
// (V8 checks only the source's length) and Node's version and architecture (V8 rejects another
// version's or other flags' cache itself). A header line says what the payload's CRC-32 and
// length are, since V8 release builds do not verify a code cache's checksum: a torn or altered
// file is ignored, never handed to V8. Written to a temporary file and renamed, mode 0600 in a
// 0700 folder. Best effort throughout: a cache that cannot be read or written only means no cache.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { cpuMs } from './cpu.js';

/** What the bundle's run tells its loader (src/cli/hooks.ts holds the bundle's side). */
export interface LaunchHooks {
  /** The run did its work; `tags` say which paths it took (kept in the cache's header). */
  covered(tags: readonly string[]): void;
  /** What loading the bundle took, for WHY_PENDING_TIMINGS; absent without the launcher. */
  load?: { wallMs: number; cpuMs: number; cache: CacheState };
}

/** `off` (disabled, or no folder for it), `absent`, `rejected` (V8 or the header said no), `accepted`. */
export type CacheState = 'off' | 'absent' | 'rejected' | 'accepted';

export interface LoadedBundle {
  exports: Record<string, unknown>;
  cache: CacheState;
  /** The hooks to give the bundle: `covered` writes the cache when the run took a path it lacks. */
  hooks: LaunchHooks;
  /** Writes the cache now if the covered tags call for it (the loader also does this at exit). */
  save(): void;
}

/** The name of the bundle among a single executable's assets (scripts/release/sea.ts, sea.ts). */
export const seaBundleAsset = 'kubectl-why_pending.cjs';

const headerVersion = 1;
/** Cache files not written for this long are removed when a new one is written. */
const staleAfterMs = 30 * 24 * 3600 * 1000;

interface Header {
  v: number;
  crc: number;
  length: number;
  covered: string[];
}

/**
 * The folder for the cache: WHY_PENDING_CODE_CACHE names one (`off` turns the cache off), else
 * the XDG cache folder, else ~/.cache, else (Windows) %LOCALAPPDATA%; none when there is no
 * home to put it in.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const chosen = env['WHY_PENDING_CODE_CACHE'];
  if (chosen === 'off' || chosen === '0') return undefined;
  if (chosen) return path.resolve(chosen);
  const base = env['XDG_CACHE_HOME'] || (env['HOME'] ? path.join(env['HOME'], '.cache') : env['LOCALAPPDATA']);
  return base ? path.join(base, 'why-pending', 'code-cache') : undefined;
}

function crc32(data: string | Uint8Array): number {
  return zlib.crc32(data) >>> 0;
}

const hex = (n: number) => n.toString(16).padStart(8, '0');

/**
 * The cache file's name: the bundle's identity and the runtime's. Node's own flags (the
 * launcher's) are in it too: V8 rejects a cache made under other flags, and two callers with
 * different flags would otherwise replace each other's cache at every run.
 */
function cacheName(bytes: Uint8Array): string {
  return `${hex(crc32(bytes))}-${bytes.length}-${process.version}-${process.arch}-${hex(crc32(process.execArgv.join(' ')))}.v8cache`;
}

/**
 * A cache is code V8 runs: only a file of this user's that no one else can write is read (one
 * another user could have put in a shared folder named by WHY_PENDING_CODE_CACHE is ignored).
 */
function ownedByUs(stat: Stats): boolean {
  if (typeof process.getuid !== 'function') return true;
  return stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
}

/** The cache and its header, or why there is none to give V8: no file, or one we refuse. */
function readCache(file: string): { header: Header; data: Buffer } | 'absent' | 'rejected' {
  let stat: Stats;
  try {
    stat = statSync(file);
  } catch {
    return 'absent';
  }
  if (!stat.isFile()) return 'absent';
  if (!ownedByUs(stat)) return 'rejected';
  let raw: Buffer;
  try {
    raw = readFileSync(file);
  } catch {
    return 'rejected';
  }
  const newline = raw.indexOf(0x0a);
  if (newline < 0 || newline > 4096) return 'rejected';
  try {
    const header = JSON.parse(raw.subarray(0, newline).toString('utf8')) as Partial<Header>;
    const data = raw.subarray(newline + 1);
    if (header.v !== headerVersion || header.length !== data.length || header.crc !== crc32(data) || !Array.isArray(header.covered)) return 'rejected';
    return { header: { v: header.v, crc: header.crc, length: header.length, covered: header.covered.filter((t) => typeof t === 'string') }, data };
  } catch {
    return 'rejected';
  }
}

function writeCache(dir: string, file: string, data: Buffer, covered: readonly string[]): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const header: Header = { v: headerVersion, crc: crc32(data), length: data.length, covered: [...covered].sort() };
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), data]), { mode: 0o600 });
    renameSync(temporary, file);
    removeStale(dir, file);
  } catch {
    // A read-only or full disk: no cache, the run itself is done.
  }
}

/** Other bundles' caches (older builds, other Node.js versions) not written for a month. */
function removeStale(dir: string, keep: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (file === keep || !/\.v8cache(\.\d+\.tmp)?$/.test(name)) continue;
    try {
      if (now - statSync(file).mtimeMs > staleAfterMs) unlinkSync(file);
    } catch {
      // Removed by another run, or not ours to remove.
    }
  }
}

/**
 * Runs the CommonJS bundle `file` with its code cache from `dir` (codeCacheDir), and arranges
 * for the cache to be written once the run says what it covered. The bundle's `require` resolves
 * from the bundle's folder (its externals, such as @kubernetes/client-node, are in node_modules).
 */
export function loadBundle(file: string, dir: string | undefined): LoadedBundle {
  return runBundle({ bytes: readFileSync(file), filename: file, require: createRequire(file) }, dir);
}

/** The bundle's bytes (UTF-8), the name it goes by in a stack trace, and what its `require` loads. */
export interface BundleSource {
  bytes: Uint8Array;
  filename: string;
  require: NodeJS.Require;
}

/** As loadBundle, for a bundle already read: the single executable's, from its assets (sea.ts). */
export function runBundle({ bytes, filename, require }: BundleSource, dir: string | undefined): LoadedBundle {
  // The CRC of the bytes, not of the text: zlib.crc32 of a string encodes the whole bundle again first.
  const cacheFile = dir ? path.join(dir, cacheName(bytes)) : undefined;
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const read = cacheFile ? readCache(cacheFile) : 'off';
  const cached = typeof read === 'string' ? undefined : read;
  // One line with the bundle's first, so that line numbers in a stack trace are the bundle's.
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapper, { filename, ...(cached ? { cachedData: cached.data } : {}) });
  const cache: CacheState = !cached ? (read as CacheState) : script.cachedDataRejected ? 'rejected' : 'accepted';
  const had = new Set(cache === 'accepted' ? (cached?.header.covered ?? []) : []);
  const covered = new Set<string>();
  let saved = false;
  const save = () => {
    if (saved || !dir || !cacheFile || covered.size === 0) return;
    if (cache === 'accepted' && [...covered].every((t) => had.has(t))) return;
    saved = true;
    // What this run compiled, and what it was given from the cache: the union of both runs' paths.
    writeCache(dir, cacheFile, script.createCachedData(), [...new Set([...had, ...covered])]);
  };
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  run(module.exports, require, module, filename, path.dirname(filename));
  return {
    exports: module.exports,
    cache,
    hooks: {
      covered: (tags) => {
        for (const tag of tags) covered.add(tag);
      },
    },
    save,
  };
}

/**
 * Loads the bundle with `load` (loadBundle or runBundle) and starts its CLI, telling it what the
 * load took; the cache is written at exit, whichever way the run ends (process.exit included):
 * by then the run has compiled what it ran.
 */
export function launch(load: () => LoadedBundle): Promise<unknown> {
  const [wall, cpu] = [performance.now(), cpuMs()];
  const loaded = load();
  const hooks: LaunchHooks = { ...loaded.hooks, load: { wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu, cache: loaded.cache } };
  process.on('exit', loaded.save);
  return (loaded.exports['cli'] as (h: LaunchHooks) => Promise<unknown>)(hooks);
}
