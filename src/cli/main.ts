#!/usr/bin/env node
// Entry point. Checks the Node.js version before anything else is loaded (see node-version.ts);
// both imports here are dependency-free.
import { exitCodes } from './exit-codes.js';
import { checkNodeVersion } from './node-version.js';

const tooOld = checkNodeVersion(process.version);
if (tooOld) {
  process.stderr.write(`error: ${tooOld}\n`);
  process.exit(exitCodes.environment);
}
await import('./run.js');
