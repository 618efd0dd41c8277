// The flags node starts with under the launcher (bin/kubectl-why_pending) and in the single
// executable (its SEA execArgv, scripts/release/sea.ts); test/unit/cli/node-flags.test.ts holds
// the launcher's exec line to this list, and the benchmarks start their processes with it.
// Both have to be given on the command line: V8 sizes its heap and Node its platform's thread
// pool at start-up, before any of our code runs.
export const nodeFlags: readonly string[] = [
  // A young generation of 16 MB semi-spaces instead of V8's default for a large machine: reading
  // every pod peaks lower for the same CPU (BENCHMARKS.md).
  '--max-semi-space-size=16',
  // One worker thread for V8's background tasks (optimizing compilers, GC helpers) instead of
  // Node's default of four, whatever the machine. The CLI's work is on the main thread: on two
  // cores, four workers compiling and collecting alongside it take its core from it, and the
  // first diagnosis of a fresh process is slower in wall time. The price: the collector keeps up
  // less well while every pod is read, a little more memory at peak. Both measured in
  // BENCHMARKS.md ("The first diagnosis of a process").
  '--v8-pool-size=1',
  // V8 drops the bytecode of functions a run has not called for a few full collections, and a
  // run that reads every pod makes many. The code cache (codeCache.ts) is written at the end of
  // a run that took a new path, as the union of what the cache held and what the run compiled:
  // with bytecode dropped, it would lose the start-up code earlier runs left there, and every
  // later run would compile it again (BENCHMARKS.md, "The code cache after a large run").
  '--no-flush-bytecode',
  // After each full collection V8 lets the heap grow to up to four times what survived before
  // collecting again, a trade for throughput that suits a server, not a command that holds a
  // cluster's pods once. A triage of 5,000 pending pods among 100,000 keeps about 230 MB live
  // and peaked at 850 MB; with 1.5 times it peaks under 500 MB, for about 15% more CPU in its
  // collections (BENCHMARKS.md, "Triage during an incident").
  '--heap-growing-percent=50',
];
