// Runs once before any end-to-end file: builds (or finds cached) the control-plane binaries,
// so the first run on a new machine spends its minutes here with progress on stderr, not in a
// test's hook, and checks that dist/ is there (the tests run it through kubectl's plugin lookup).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureBinaries } from './harness/binaries.js';
import { ensureKarpenterBinaries } from './harness/karpenter.js';
import { REPO_ROOT, assertBuilt } from './harness/why-pending.js';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** The one line a machine without Go gets, instead of a stack trace from deep in the build. */
function requireGo(): void {
  if (process.env.WHY_PENDING_CP_BIN_DIR) return;
  const found = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (found.status === 0) return;
  process.stderr.write(
    'error: the end-to-end tests need Go 1.26 or newer on PATH to build the test control plane (k8s.io/kubernetes from the Go module proxy, about 5 GB of disk and 10-17 minutes the first time); ' +
      'install Go, or set WHY_PENDING_CP_BIN_DIR to a folder holding etcd, kube-apiserver, kube-scheduler and kube-controller-manager, or run `npm run unit` for the tests that need no cluster\n',
  );
  process.exit(1);
}

export default async function setup(): Promise<void> {
  requireGo();
  assertBuilt();
  const cli = join(REPO_ROOT, 'dist', 'cli', 'main.js');
  const src = join(REPO_ROOT, 'src');
  if (existsSync(src) && newestMtime(src) > statSync(cli).mtimeMs) {
    process.stderr.write('[e2e] warning: src/ is newer than dist/; the end-to-end tests run dist/ (run `npm run build`)\n');
  }
  const t0 = Date.now();
  process.stderr.write('[e2e] control-plane binaries: test/controlplane/build.sh (the first build takes minutes)\n');
  // `go build` prints nothing while it works: say that it still does.
  const heartbeat = setInterval(() => {
    process.stderr.write(`[e2e] still building the control plane (${Math.round((Date.now() - t0) / 1000)}s)\n`);
  }, 30_000);
  try {
    const bins = await ensureBinaries();
    process.stderr.write(`[e2e] control plane ${bins.version} ready in ${((Date.now() - t0) / 1000).toFixed(1)}s: ${bins.dir}\n`);
    // Each file's startTestCluster finds them through this instead of running build.sh again.
    process.env.WHY_PENDING_CP_BIN_DIR ??= bins.dir;
  } finally {
    clearInterval(heartbeat);
  }
  // Karpenter's KWOK provider and kwok (karpenter.test.ts): about 7 minutes the first time.
  const t1 = Date.now();
  process.stderr.write('[e2e] Karpenter KWOK provider and kwok: test/karpenter/build.sh (the first build takes minutes)\n');
  const beat = setInterval(() => {
    process.stderr.write(`[e2e] still building Karpenter and kwok (${Math.round((Date.now() - t1) / 1000)}s)\n`);
  }, 30_000);
  try {
    const k = await ensureKarpenterBinaries();
    process.stderr.write(`[e2e] Karpenter and kwok ready in ${((Date.now() - t1) / 1000).toFixed(1)}s\n`);
    process.env.WHY_PENDING_KARPENTER_BIN_DIR ??= dirname(k.karpenter);
    process.env.WHY_PENDING_KWOK_BIN_DIR ??= dirname(k.kwok);
  } finally {
    clearInterval(beat);
  }
}
