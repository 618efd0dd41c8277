#!/usr/bin/env node
// Entry point. Checks the Node.js version before anything else is loaded (see node-version.ts);
// both static imports here are dependency-free. Shell completion (`__complete`, `completion
// bash|zsh|fish`) is routed before the diagnosis is loaded: it runs at every <TAB>. No
// top-level await, so that the release bundles this file as the single executable's CommonJS.
import module from 'node:module';
import { exitCodes } from './exit-codes.js';
import { checkNodeVersion } from './node-version.js';

// Node keeps the compiled code of the modules it loads on disk (os.tmpdir()), so that later
// runs skip compiling them (about a fifth of loading; @kubernetes/client-node, once most of it,
// is no longer loaded by a live read: sources/live/kubeconfig.ts). Best effort: a read-only
// disk only means no cache.
module.enableCompileCache?.();

const tooOld = checkNodeVersion(process.version);
const [command, ...rest] = process.argv.slice(2);
if (tooOld) {
  process.stderr.write(`error: ${tooOld}\n`);
  process.exit(exitCodes.environment);
} else if (command === '__complete' || (command === 'completion' && rest.length === 1 && ['bash', 'zsh', 'fish'].includes(rest[0] ?? ''))) {
  void import('./completion-command.js').then((m) => m.runCompletion(command, rest));
} else if (command === 'mcp') {
  // A Model Context Protocol server on stdio (mcp.ts): it runs until its client closes it.
  void import('./mcp.js').then((m) => m.runMcp(rest)).catch((error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = exitCodes.usage;
  });
} else {
  void import('./run.js');
}
