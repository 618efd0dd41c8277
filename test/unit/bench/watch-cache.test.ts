// The live benchmark's reading of where the apiserver served pod LISTs from (its metrics).
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../e2e/harness/api.js';
import { keepPodsWritten, podListsFromEtcd } from '../../bench/live/watch-cache.js';

// Lines as a v1.37.2 kube-apiserver serves them, the neighbours of the one counted included.
const metrics = [
  '# TYPE apiserver_storage_list_total counter',
  'apiserver_storage_list_total{group="",index="",resource="podtemplates",storage="etcd"} 4',
  'apiserver_storage_list_total{group="",index="",resource="pods",storage="etcd"} 1.2389e+06',
  'apiserver_storage_list_total{group="",index="",resource="pods",storage="watchcache"} 5503',
  'apiserver_storage_list_total{group="",index="f:spec.nodeName",resource="pods",storage="watchcache"} 170',
  'apiserver_storage_list_fetched_objects_total{group="",index="",resource="pods",storage="etcd"} 77',
].join('\n');

const serving = (text: string, status = 200): ApiClient => ({ raw: () => Promise.resolve({ status, text }) }) as unknown as ApiClient;

describe('pod LISTs served from etcd', () => {
  it('counts the pods series from etcd, not the watch cache, an index or another resource', async () => {
    expect(await podListsFromEtcd(serving(metrics))).toBe(1_238_900);
  });
  it('is 0 before any pod LIST went to etcd (the series appears at its first count)', async () => {
    expect(await podListsFromEtcd(serving(metrics.split('\n').filter((l) => !l.includes('"pods",storage="etcd"')).join('\n')))).toBe(0);
  });
  it('fails when the metrics cannot be read', async () => {
    await expect(podListsFromEtcd(serving('forbidden', 403))).rejects.toThrow('GET /metrics: HTTP 403');
  });
});

describe('one pod kept written', () => {
  // A patch that takes `ms`, counting how many are in flight at once.
  const patching = (ms: number, fail = false) => {
    const seen = { calls: 0, inFlight: 0, most: 0, bodies: [] as unknown[] };
    const api = {
      patch: (_path: string, body: unknown) => {
        seen.calls++;
        seen.bodies.push(body);
        seen.most = Math.max(seen.most, ++seen.inFlight);
        return new Promise((resolve, reject) => setTimeout(() => (seen.inFlight--, fail ? reject(new Error('HTTP 404')) : resolve({})), ms));
      },
    } as unknown as ApiClient;
    return { api, seen };
  };

  it('writes one at a time, the next after the one before, and says how many', async () => {
    const { api, seen } = patching(20);
    const writer = keepPodsWritten(api, 'team-00', 'svc-0-000000', 1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const writes = await writer.stop();
    expect(seen.most).toBe(1);
    expect(writes).toBe(seen.calls);
    expect(writes).toBeGreaterThan(1);
    expect(seen.bodies[0]).toEqual({ metadata: { annotations: { 'bench/written-at': expect.any(String) } } });
  });

  it('stops writing once stopped', async () => {
    const { api, seen } = patching(1);
    const writes = await keepPodsWritten(api, 'team-00', 'svc-0-000000', 1).stop();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(seen.calls).toBe(writes);
  });

  it('throws the first write that failed', async () => {
    const { api } = patching(1, true);
    await expect(keepPodsWritten(api, 'team-00', 'gone', 1).stop()).rejects.toThrow('writing pod team-00/gone to keep the watch cache\'s snapshots: HTTP 404');
  });
});
