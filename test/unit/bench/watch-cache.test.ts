// The live benchmark's reading of where the apiserver served pod LISTs from (its metrics).
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../e2e/harness/api.js';
import { podListsFromEtcd } from '../../bench/live/watch-cache.js';

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
