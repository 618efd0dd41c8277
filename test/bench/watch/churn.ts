// Churn elsewhere in the cluster: `rate` pods a second created in their own namespace (small
// requests, left to the scheduler to bind) and each deleted `lifetimeMs` later with grace 0
// (no kubelet would confirm a graceful deletion), through the API, at most `width` requests
// at once. What was asked but not sent within a second is dropped, not caught up in a burst:
// the rate achieved is what is reported. Failures (the apiserver's restart) are counted; a
// deletion that failed is tried again a second later, so that no churn pod is left behind.
import { ApiError, type ApiClient } from '../../e2e/harness/api.js';

export interface ChurnOptions {
  namespace: string;
  rate: number;
  width: number;
  lifetimeMs: number;
}

export interface ChurnStats {
  seconds: number;
  created: number;
  deleted: number;
  /** Creations not sent within a second of their time (the pool was full). */
  dropped: number;
  failedCreates: number;
  failedDeletes: number;
  /** Pods created in each whole minute of the run. */
  createdPerMinute: number[];
  /** Churn pods still there after stop() (deletions that kept failing). */
  left: number;
}

export interface Churn {
  stats(): ChurnStats;
  /** Stops creating, deletes what is left, and returns the figures as they were when it stopped. */
  stop(): Promise<ChurnStats>;
}

const enc = encodeURIComponent;

export function startChurn(api: ApiClient, opts: ChurnOptions): Churn {
  const t0 = Date.now();
  let issued = 0;
  let inFlight = 0;
  let stopping = false;
  const s: ChurnStats = { seconds: 0, created: 0, deleted: 0, dropped: 0, failedCreates: 0, failedDeletes: 0, createdPerMinute: [], left: 0 };
  /** Created pods by the time they are due for deletion (ascending). */
  const toDelete: { name: string; at: number }[] = [];

  const create = async (i: number) => {
    const name = `churn-${i.toString(36)}`;
    try {
      await api.post(`/api/v1/namespaces/${enc(opts.namespace)}/pods`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels: { app: 'churn' } },
        spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
      });
      s.created++;
      const minute = Math.floor((Date.now() - t0) / 60_000);
      s.createdPerMinute[minute] = (s.createdPerMinute[minute] ?? 0) + 1;
      toDelete.push({ name, at: Date.now() + opts.lifetimeMs });
    } catch {
      s.failedCreates++;
    }
  };
  const remove = async (name: string) => {
    try {
      await api.delete(`/api/v1/namespaces/${enc(opts.namespace)}/pods/${enc(name)}`, { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 });
      s.deleted++;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        s.deleted++;
        return;
      }
      s.failedDeletes++;
      toDelete.push({ name, at: Date.now() + 1000 });
      toDelete.sort((a, b) => a.at - b.at);
    }
  };
  const launch = (work: Promise<void>) => {
    inFlight++;
    void work.finally(() => {
      inFlight--;
      pump();
    });
  };
  function pump(): void {
    const now = Date.now();
    // Deletions first, so that the churn's population stays at rate x lifetime.
    while (inFlight < opts.width && toDelete.length > 0 && ((toDelete[0]?.at ?? Infinity) <= now || stopping)) {
      const next = toDelete.shift();
      if (next) launch(remove(next.name));
    }
    if (stopping) return;
    const due = Math.floor(((now - t0) / 1000) * opts.rate);
    if (due - issued > opts.rate) {
      s.dropped += due - issued - opts.rate;
      issued = due - opts.rate;
    }
    while (inFlight < opts.width && issued < due) launch(create(issued++));
  }
  const timer = setInterval(pump, 10);
  const stats = () => ({ ...s, seconds: (Date.now() - t0) / 1000 });
  return {
    stats,
    async stop() {
      clearInterval(timer);
      const final = stats();
      stopping = true;
      const until = Date.now() + 60_000;
      while ((toDelete.length > 0 || inFlight > 0) && Date.now() < until) {
        pump();
        await new Promise((r) => setTimeout(r, 50));
      }
      return { ...final, left: toDelete.length + inFlight };
    },
  };
}
