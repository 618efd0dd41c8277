// Run by the bench in a child process, so that its peak RSS is this read's alone:
//   node --import tsx test/bench/read-dump-child.ts FILE
// prints one line of JSON: seconds, peak RSS, and what the snapshot holds.
import { performance } from 'node:perf_hooks';
import { readDump } from '../../src/sources/dump/read.js';

const file = process.argv[2];
if (!file) throw new Error('usage: read-dump-child.ts FILE');
const start = performance.now();
const snapshot = await readDump(file, process.stdin);
const seconds = (performance.now() - start) / 1000;
globalThis.gc?.();
console.log(
  JSON.stringify({
    seconds,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    heapAfterBytes: process.memoryUsage().heapUsed,
    nodes: snapshot.objects.nodes.length,
    pods: snapshot.objects.pods.length,
  }),
);
