// Keeping a large live run inside the machine. Every bound pod is held decoded by the apiserver
// (its watch cache), etcd, and, while they run, the scheduler and the controller manager (their
// informers): three times the default run's pods exhaust this machine (issue 33). Before starting, the run's peak is
// estimated from what each process was measured to hold per pod (BENCHMARKS.md, "Memory of a
// large run"), and a run the machine cannot hold is refused with one clear line; while it runs,
// a guard stops it, control plane included, if the machine's available memory runs low anyway
// (other work on the same machine).
import { readFileSync } from 'node:fs';

/**
 * KB per bound pod held by each process, for the seeder's pods, at the Go collector's default
 * (GOGC=100) and at GOGC=50: the growth of each process's RSS from 4,000 to 12,000 pods
 * (BENCHMARKS.md, "Memory of a large run"); each run prints what it measured at its own size.
 */
const perPodKB = {
  100: { 'kube-apiserver': 145, etcd: 17, 'kube-scheduler': 25, 'kube-controller-manager': 25 },
  50: { 'kube-apiserver': 95, etcd: 16, 'kube-scheduler': 20, 'kube-controller-manager': 21 },
} as const;
/** A node (24 images, labels, conditions) across the four processes, rounded up. */
const perNodeKB = 100;
/** A pending pod (a small spec, its condition and the scheduler's event) across the four, rounded up. */
const perPendingKB = 40;
/** The four processes before any object, and the benchmark process itself (it holds a case's reads). */
const baseMB = 600 + 1024;
/** The largest tool the rounds run beside the control plane without the peer (why-pending, kubectl get nodes). */
const toolMB = 1500;
/** The Go peer (why-pending-go) holds every pod too (its peak RSS in the bench:live table). */
const peerPerPodKB = 40;

/**
 * Above this many bound and pending pods the control loops are stopped once their verdicts are
 * in and the control plane collects at GOGC=50: the default run (50,000) is measured as it
 * always was, the 100,000-pod run fits the machine (bench:live, and bench:replay's recording).
 */
export const LARGE_RUN_PODS = 60_000;

export interface RunShape {
  nodes: number;
  pods: number;
  pending: number;
  gogc: 50 | 100;
  /** kube-controller-manager stopped before the bulk seeding, kube-scheduler once every verdict is in. */
  stopControlLoops: boolean;
  peer: boolean;
}

/**
 * The run's estimated peak (MB), the larger of its two phases: seeding and verdicts (every
 * control-plane process running that is not stopped early), and the timed runs (the control
 * loops gone when stopped, the largest tool beside the control plane), with the parts of it.
 */
export function estimatePeak(run: RunShape): { totalMB: number; parts: Record<string, number> } {
  const kb = perPodKB[run.gogc];
  const held = (who: keyof typeof kb) => (run.pods * kb[who]) / 1024;
  const always = {
    'kube-apiserver': held('kube-apiserver'),
    etcd: held('etcd'),
    'nodes and pending pods': (run.nodes * perNodeKB + run.pending * perPendingKB) / 1024,
    'processes before any object, this one': baseMB,
  };
  const loops: Record<string, number> = run.stopControlLoops ? {} : { 'kube-scheduler': held('kube-scheduler'), 'kube-controller-manager': held('kube-controller-manager') };
  const seeding: Record<string, number> = { ...always, 'kube-scheduler': held('kube-scheduler'), ...loops };
  const timed: Record<string, number> = { ...always, ...loops, 'largest tool': Math.max(toolMB, run.peer ? (run.pods * peerPerPodKB) / 1024 : 0) };
  const sum = (parts: Record<string, number>) => Object.values(parts).reduce((a, b) => a + b, 0);
  const parts = sum(seeding) >= sum(timed) ? seeding : timed;
  return { totalMB: sum(parts), parts };
}

/** MemAvailable (MB): what the kernel can give without swapping; Infinity off Linux. */
export function availableMB(): number {
  try {
    const kb = Number(/MemAvailable:\s+(\d+)/.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]);
    return Number.isFinite(kb) && kb > 0 ? kb / 1024 : Infinity;
  } catch {
    return Infinity;
  }
}

/** Below this much available memory the guard stops the run: the kernel's OOM killer would otherwise pick among everything on the machine. */
export const GUARD_MB = 1024;

/**
 * Calls `onLow` once if available memory falls under GUARD_MB; checked every 2 s. Returns the
 * function that stops watching.
 */
export function memoryGuard(onLow: (availableMB: number) => void): () => void {
  const timer = setInterval(() => {
    const free = availableMB();
    if (free >= GUARD_MB) return;
    clearInterval(timer);
    onLow(free);
  }, 2000);
  timer.unref();
  return () => clearInterval(timer);
}
