#!/usr/bin/env node
// Entry point. Checks the Node.js version before anything else is loaded: the dependencies
// (client-node's HTTP stack) fail at import time on older versions, with a stack trace.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(`error: kubectl why-pending needs Node.js 22.12 or newer, found ${process.version}; install a current Node.js LTS\n`);
  process.exit(1);
}
await import('./run.js');
