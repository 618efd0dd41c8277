// The flags node starts with under the launcher (bin/kubectl-why_pending) and in the single
// executable (its SEA execArgv, scripts/release/sea.ts); test/unit/cli/node-flags.test.ts holds
// the launcher's exec line to this list, and the benchmarks start their processes with it.
// Both have to be given on the command line: V8 sizes its heap and Node its platform's thread
// pool at start-up, before any of our code runs.
export const nodeFlags: readonly string[] = [
  // A young generation of 16 MB semi-spaces instead of V8's default for a large machine (64 MB):
  // reading every pod of 2,500 nodes peaked 85 MB lower, same CPU (BENCHMARKS.md).
  '--max-semi-space-size=16',
  // One worker thread for V8's background tasks (optimizing compilers, GC helpers) instead of
  // Node's default of four, whatever the machine. The CLI's work is on the main thread: on two
  // cores, four workers compiling and collecting alongside it took its core from it (30 to 60
  // involuntary switches per diagnosis, process CPU twice the main thread's), and the first
  // diagnosis of a fresh process was 5 to 25 ms slower in wall time. The price: the collector
  // keeps up less well while every pod is read, about 10 MB more at peak on 5,000 nodes (at most
  // 384 MB seen, the limit 400). Both measured in BENCHMARKS.md ("The first diagnosis of a process").
  '--v8-pool-size=1',
];
