// One CommonJS file holding the CLI and its dependencies: what Node's single executable
// application mechanism runs (it takes one script, and CommonJS). The version is written in,
// since no package.json travels with the executable. Modules the CLI imports lazily (the live
// source, completion) stay lazy: esbuild evaluates them at their first import().
import { build } from 'esbuild';

export interface BundleOptions {
  /** Packages left to `require` from node_modules at run time. */
  external?: string[];
  minify?: boolean;
}

export async function bundle(entry: string, outfile: string, version: string, options: BundleOptions = {}): Promise<void> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    minify: options.minify ?? true,
    external: options.external ?? [],
    // An external's import() as require(): code run by vm.Script has no loader for import()
    // (src/cli/codeCache.ts), and Node.js 22.12+ requires ES modules.
    supported: { 'dynamic-import': false },
    legalComments: 'eof',
    define: { WHY_PENDING_VERSION: JSON.stringify(version) },
    // version.ts reads package.json through import.meta.url only when no version is written in.
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'warning',
  });
  if (result.errors.length > 0 || result.warnings.length > 0) throw new Error(`bundling ${entry}: ${result.errors.length} errors, ${result.warnings.length} warnings`);
}
