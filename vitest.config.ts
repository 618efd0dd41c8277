import { configDefaults, defineConfig } from 'vitest/config';

// Three projects, all run by `npx vitest run` (`--project unit`, `e2e` or `release` for one):
//   unit: everything but test/e2e and test/release/install, files in parallel, first;
//   e2e:  test/e2e (a real control plane per file), one file at a time after the unit tests,
//         so a control plane never competes with another one or with the unit tests for the
//         CPUs. Its global setup builds the control-plane binaries once (minutes on a new
//         machine, progress on stderr) before any e2e file starts.
//   release: test/release/install, the install routes with real tools (npm pack + npm install -g;
//         krew built from its Go module installing the release archives), one file at a time,
//         last. The release build and krew are slow the first time (minutes), cached after.
// groupOrder runs the groups one after the other. unit's is 1, not the default 0: with one
// worker (the default on 2 CPUs) vitest would otherwise put group-0 files in a group of its
// own that runs last.
export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/e2e/**', 'test/release/install/**'],
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['./test/e2e/global-setup.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'release',
          include: ['test/release/install/**/*.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 3 },
          testTimeout: 120_000,
          hookTimeout: 1_200_000,
        },
      },
    ],
  },
});
