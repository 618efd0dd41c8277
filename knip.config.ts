// Dead code, unused files and unlisted or unused dependencies; run by `npm run lint`.
import type { KnipConfig } from 'knip';

export default {
  // The vitest, eslint and tsx plugins find the rest: test files, vitest.config.ts and its
  // global setup and reporter, eslint.config.js, and test/bench/run.ts (the `bench` script).
  entry: [
    // bin/kubectl-why_pending is a shell script that runs dist/cli/launch.js, which runs the
    // bundle built from src/cli/bundle.ts (scripts/bundle-cli.ts); the CLI tests run
    // dist/cli/main.js.
    'src/cli/launch.ts',
    'src/cli/bundle.ts',
    // The single executable's main script (scripts/release/run.ts bundles it).
    'src/cli/sea.ts',
    'src/cli/main.ts',
    // The library: package.json's "exports" (import { diagnose, triage, readDump } from 'kubectl-why-pending').
    'src/index.ts',
    // Spawned by test/bench/run.ts as a child process of its own.
    'test/bench/read-dump-child.ts',
    // test/bench/live.ts (bench:live) spawns raw-list.ts (plain node) for its reference
    // reads; engine.ts is run by hand (the engine alone on the same cluster).
    'test/bench/live/raw-list.ts',
    'test/bench/live/engine.ts',
    // test/bench/libraries.ts (bench:libraries) spawns these with plain node: each side of a
    // comparison, and the servers they read from. The libraries they weigh are loaded from a
    // cache prefix by absolute path (libraries/install.ts), never from package.json.
    'test/bench/libraries/*-child.ts',
    'test/bench/libraries/servers.ts',
    // test/bench/replay.ts (bench:replay) runs the replay server as a process of its own.
    'test/bench/replay/server.ts',
    // Run by hand with tsx to capture a scenario (README, Development).
    'test/e2e/harness/capture.ts',
    'test/e2e/harness/to-scenario.ts',
    'test/e2e/harness/capture-karpenter.ts',
  ],
  project: ['src/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts', '*.{js,ts}'],
  // A type that spells out part of an exported one (Stage and LikelyCause in the Diagnosis, a
  // rule's reason shapes) stays exported: it names part of the documented contract, and the
  // contract's type (report/contract.ts) imports them. A value used only in its own file is
  // still reported: it loses its `export`.
  ignoreExportsUsedInFile: { interface: true, type: true },
  // Programs the tests run that no npm package provides: kubectl (plugin lookup), go (builds
  // the e2e control plane and krew), openssl (test certificates), fish (completion script,
  // when installed); and rcodesign, which the release uses to sign macOS executables if found.
  ignoreBinaries: ['kubectl', 'go', 'openssl', 'fish', 'rcodesign'],
} satisfies KnipConfig;
