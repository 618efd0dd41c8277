// Faults against a local fake API server: what the user sees when the cluster misbehaves.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClusterError } from '../../../src/errors.js';
import { loadConfig, type LiveConfig } from '../../../src/sources/live/config.js';
import { ApiStatusError } from '../../../src/sources/live/errors.js';
import { continueInHead, Transport, type TransportOptions } from '../../../src/sources/live/transport.js';
import { configFor, json, list, options, selfSigned, startFakeApiServer, status, type FakeApiServer } from './fake-apiserver.js';
import type { V1Pod } from '@kubernetes/client-node';
import { neighbourPodPages } from '../../../src/sources/live/protobuf/envelope.js';
import { envelope, message } from '../../support/protobuf.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(...args: Parameters<typeof startFakeApiServer>): Promise<FakeApiServer> {
  const server = await startFakeApiServer(...args);
  cleanups.push(() => server.close());
  return server;
}

function transport(config: LiveConfig, extra: TransportOptions = {}): { t: Transport; waits: number[] } {
  const waits: number[] = [];
  const t = new Transport(config, { sleep: async (ms) => void waits.push(ms), ...extra });
  cleanups.push(() => t.close());
  return { t, waits };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

const node = (name: string) => ({ metadata: { name, uid: `uid-${name}` } });
const get = (t: Transport, path = '/api/v1/nodes/n1', what = 'reading node n1') => t.get({ path, what });

describe('read-only', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'get'])('refuses %s before anything is sent', async (method) => {
    const server = await serve({ '/api/v1/nodes': list([]) });
    const { t } = transport(configFor(server.url));
    const error = await failure(t.request(method as 'GET', { path: '/api/v1/nodes', what: 'x' }));
    expect(error.message).toMatch(/read-only: refusing to send/);
    expect(server.requests).toHaveLength(0);
    expect(t.sent).toHaveLength(0);
  });

  it('sends GET with the token, a user agent, and never a body', async () => {
    const server = await serve({ '/api/v1/nodes/n1': node('n1') });
    const { t } = transport(configFor(server.url));
    expect(await get(t)).toEqual(node('n1'));
    const [seen] = server.requests;
    expect(seen?.method).toBe('GET');
    expect(seen?.headers['authorization']).toBe('Bearer secret-token-123');
    expect(seen?.headers['user-agent']).toMatch(/^kubectl-why-pending/);
    expect(seen?.headers['content-length']).toBeUndefined();
  });
});

describe('paged LISTs', () => {
  it('follows continue across pages and drops managedFields', async () => {
    const server = await serve({
      '/api/v1/nodes': (_req, res, seen) => {
        const page = seen.query.get('continue') ?? 'first';
        const next = { first: 'p2', p2: 'p3', p3: undefined }[page];
        const start = { first: 0, p2: 2, p3: 4 }[page] ?? 0;
        const items = [start, start + 1].map((i) => ({ metadata: { name: `n${i}`, managedFields: [{ manager: 'x' }] } }));
        json(res, 200, list(items, 'NodeList', next));
      },
    });
    const { t } = transport(configFor(server.url), { pageSize: 2 });
    const pages: number[] = [];
    const items = await t.list<{ metadata: { name: string; managedFields?: unknown } }>({ path: '/api/v1/nodes', what: 'listing nodes' }, { onPage: (n) => pages.push(n) });
    expect(items.map((i) => i.metadata.name)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5']);
    expect(items.every((i) => i.metadata.managedFields === undefined)).toBe(true);
    expect(server.requests.map((r) => [r.query.get('limit'), r.query.get('continue')])).toEqual([
      ['2', null],
      ['2', 'p2'],
      ['2', 'p3'],
    ]);
    expect(pages).toEqual([2, 4, 6]);
  });

  it('an expired continue token falls back to one full LIST, as client-go does', async () => {
    const server = await serve({
      '/api/v1/nodes': (_req, res, seen) => {
        if (seen.query.get('continue')) return json(res, 410, status(410, 'Expired', 'The provided continue parameter is too old'));
        if (seen.query.get('limit')) return json(res, 200, list([node('a')], 'NodeList', 'next'));
        json(res, 200, list([node('a'), node('b'), node('c')], 'NodeList'));
      },
    });
    const { t } = transport(configFor(server.url));
    const items = await t.list<{ metadata: { name: string } }>({ path: '/api/v1/nodes', what: 'listing nodes' });
    expect(items.map((i) => i.metadata.name)).toEqual(['a', 'b', 'c']);
  });

  /**
   * Two pages of nodes; the first page's head (with its continue token) is sent at once, its
   * end only once the second page was asked for, or after `waitMs`. `finishedFirstAfterSecond`
   * says, for the first page, whether the second was asked for before it ended.
   */
  async function twoPages(waitMs: number) {
    let secondAsked: () => void = () => undefined;
    const second = new Promise<void>((resolve) => (secondAsked = resolve));
    const finishedFirstAfterSecond: boolean[] = [];
    const server = await serve({
      '/version': { major: '1' },
      '/api/v1/nodes': (_req, res, seen) => {
        if (seen.query.get('continue') === 'p2') {
          secondAsked();
          return json(res, 200, list([node('b')], 'NodeList'));
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"1","continue":"p2","remainingItemCount":1},"items":[');
        const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitMs));
        void Promise.race([second.then(() => true), timeout]).then((early) => {
          finishedFirstAfterSecond.push(early);
          res.end(`${JSON.stringify(node('a'))}]}`);
        });
      },
    });
    const { t } = transport(configFor(server.url));
    await t.get({ path: '/version', what: 'warming up' });
    return { t, finishedFirstAfterSecond };
  }

  it('asks for the next page as soon as its continue token has arrived, before the page has ended', async () => {
    // The first page ends only once the next was asked for (or after 2 s, to fail).
    const { t, finishedFirstAfterSecond } = await twoPages(2000);
    const items = await t.list<{ metadata: { name: string } }>({ path: '/api/v1/nodes', what: 'listing nodes' });
    expect(items.map((i) => i.metadata.name)).toEqual(['a', 'b']);
    expect(finishedFirstAfterSecond).toEqual([true]);
  });

  it('with prefetch off, asks for the next page only once the page before has ended', async () => {
    const { t, finishedFirstAfterSecond } = await twoPages(300);
    const items = await t.list<{ metadata: { name: string } }>({ path: '/api/v1/nodes', what: 'listing nodes' }, { prefetch: false });
    expect(items.map((i) => i.metadata.name)).toEqual(['a', 'b']);
    expect(finishedFirstAfterSecond).toEqual([false]);
  });

  it('reads the continue token from the start of a list, or says it cannot', () => {
    expect(continueInHead('{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7","continue":"abc=","remainingItemCount":9},"items":[{"metadata":{')).toBe('abc=');
    expect(continueInHead('{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[')).toBeUndefined();
    expect(continueInHead('{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7","continue":"ab')).toBeNull();
    // Items first (not what the apiserver writes): the page's end decides.
    expect(continueInHead('{"items":[],"metadata":{"continue":"x"}}')).toBeNull();
  });

  it('reduce cuts each kept item as its page arrives', async () => {
    const server = await serve({ '/api/v1/nodes': list([{ metadata: { name: 'a' }, status: { images: [{ names: ['x'] }] } }]) });
    const { t } = transport(configFor(server.url));
    const items = await t.list<{ metadata: { name: string }; status?: { images?: unknown } }>(
      { path: '/api/v1/nodes', what: 'listing nodes' },
      { reduce: (n) => ({ metadata: n.metadata }) },
    );
    expect(items).toEqual([{ metadata: { name: 'a' } }]);
  });

  it('keep filters page by page', async () => {
    const server = await serve({ '/api/v1/nodes': list([node('a'), node('b')]) });
    const { t } = transport(configFor(server.url));
    const items = await t.list<{ metadata: { name: string } }>({ path: '/api/v1/nodes', what: 'listing nodes' }, { keep: (n) => n.metadata.name === 'b' });
    expect(items).toEqual([node('b')]);
  });
});

describe('pod pages in protobuf', () => {
  const protobuf = (res: http.ServerResponse, code: number, body: Buffer) => {
    res.writeHead(code, { 'content-type': 'application/vnd.kubernetes.protobuf', 'content-length': body.length });
    res.end(body);
  };
  const pods = envelope('PodList', message([[1, [[3, '']]], [2, [[1, [[1, 'p1'], [3, 'shop']]], [2, [[10, 'n1']]]]]]));
  const reduce = (p: V1Pod): V1Pod => ({ ...p, reduced: true }) as V1Pod;
  const request = { path: '/api/v1/pods', what: 'listing pods', decodeProtobuf: neighbourPodPages() };

  it('asks for protobuf, JSON accepted too, and decodes a protobuf page into reduced records', async () => {
    const server = await serve({ '/api/v1/pods': (_req, res) => protobuf(res, 200, pods) });
    const { t } = transport(configFor(server.url));
    expect(await t.list<V1Pod>(request, { reduce })).toEqual([{ metadata: { name: 'p1', namespace: 'shop' }, spec: { containers: [], nodeName: 'n1' } }]);
    expect(server.requests[0]?.headers['accept']).toBe('application/vnd.kubernetes.protobuf, application/json');
  });

  it('a server that answers in JSON is read as JSON, reduced as usual', async () => {
    const server = await serve({ '/api/v1/pods': list([{ metadata: { name: 'p1' } }]) });
    const { t } = transport(configFor(server.url));
    expect(await t.list<V1Pod>(request, { reduce })).toEqual([{ metadata: { name: 'p1' }, reduced: true }]);
  });

  it('a protobuf answer it cannot decode is asked for again in JSON', async () => {
    const server = await serve({
      '/api/v1/pods': (req, res) => (String(req.headers['accept']).includes('protobuf') ? protobuf(res, 200, Buffer.from('not protobuf')) : json(res, 200, list([{ metadata: { name: 'p1' } }]))),
    });
    const { t } = transport(configFor(server.url));
    expect(await t.list<V1Pod>(request, { reduce })).toEqual([{ metadata: { name: 'p1' }, reduced: true }]);
    expect(server.requests.map((r) => r.headers['accept'])).toEqual(['application/vnd.kubernetes.protobuf, application/json', 'application/json']);
  });

  it('an error in protobuf gives its Status message', async () => {
    const forbidden = envelope('Status', message([[2, 'Failure'], [3, 'pods is forbidden: User "u" cannot list resource "pods"'], [4, 'Forbidden'], [6, 403]]));
    const server = await serve({ '/api/v1/pods': (_req, res) => protobuf(res, 403, forbidden) });
    const { t } = transport(configFor(server.url));
    const error = await failure(t.list<V1Pod>(request, { reduce }));
    expect(error).toBeInstanceOf(ApiStatusError);
    expect(error.message).toContain('pods is forbidden: User "u" cannot list resource "pods"');
  });
});

describe('retries', () => {
  it('429 with Retry-After waits as told, then succeeds', async () => {
    const server = await serve({
      '/api/v1/nodes/n1': (_req, res, _seen, nth) =>
        nth === 1 ? json(res, 429, status(429, 'TooManyRequests', 'slow down'), { 'retry-after': '3' }) : json(res, 200, node('n1')),
    });
    const { t, waits } = transport(configFor(server.url));
    expect(await get(t)).toEqual(node('n1'));
    expect(waits).toEqual([3000]);
    expect(server.requests).toHaveLength(2);
  });

  it('Retry-After is capped', async () => {
    const server = await serve({
      '/api/v1/nodes/n1': (_req, res, _seen, nth) => (nth === 1 ? json(res, 503, status(503, 'ServiceUnavailable', 'x'), { 'retry-after': '3600' }) : json(res, 200, node('n1'))),
    });
    const { t, waits } = transport(configFor(server.url));
    await get(t);
    expect(waits).toEqual([10_000]);
  });

  it('500 then success, with backoff', async () => {
    const server = await serve({
      '/api/v1/nodes/n1': (_req, res, _seen, nth) => (nth <= 2 ? json(res, 500, status(500, 'InternalError', 'etcd hiccup')) : json(res, 200, node('n1'))),
    });
    const { t, waits } = transport(configFor(server.url));
    expect(await get(t)).toEqual(node('n1'));
    expect(waits).toEqual([500, 1000]);
  });

  it('500 forever ends after 4 tries with one clear line', async () => {
    const server = await serve({ '/api/v1/nodes/n1': (_req, res) => json(res, 500, status(500, 'InternalError', 'etcdserver: request timed out')) });
    const { t, waits } = transport(configFor(server.url));
    const error = await failure(get(t));
    expect(error).toBeInstanceOf(ClusterError);
    expect(error.message).toBe("reading node n1: the API server answered 500 InternalError 4 times: etcdserver: request timed out; check the control plane's health, then retry");
    expect(server.requests).toHaveLength(4);
    expect(waits).toEqual([500, 1000, 2000]);
  });

  it('429 forever says the server is throttling', async () => {
    const server = await serve({ '/api/v1/nodes/n1': (_req, res) => json(res, 429, status(429, 'TooManyRequests', ''), { 'retry-after': '1' }) });
    const { t } = transport(configFor(server.url));
    expect((await failure(get(t))).message).toMatch(/^reading node n1: the API server kept throttling requests \(429 Too Many Requests, 4 tries\)/);
  });

  it('a dropped connection is retried', async () => {
    const server = await serve({ '/api/v1/nodes/n1': (req, res, _seen, nth) => (nth === 1 ? req.socket.destroy() : json(res, 200, node('n1'))) });
    const { t } = transport(configFor(server.url));
    expect(await get(t)).toEqual(node('n1'));
    expect(server.requests).toHaveLength(2);
  });

  it('a connection dropped every time ends in one line', async () => {
    const server = await serve({ '/api/v1/nodes/n1': (req) => req.socket.destroy() });
    const { t } = transport(configFor(server.url));
    const error = await failure(get(t));
    expect(error.message).toMatch(/^reading node n1: http:\/\/127\.0\.0\.1:\d+ closed the connection before answering \(tried 4 times\)/);
  });

  it('a response cut in the middle is retried', async () => {
    const server = await serve({
      '/api/v1/nodes/n1': (_req, res, _seen, nth) => {
        if (nth > 1) return json(res, 200, node('n1'));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"metadata":');
        setTimeout(() => res.socket?.destroy(), 10);
      },
    });
    const { t } = transport(configFor(server.url));
    expect(await get(t)).toEqual(node('n1'));
  });
});

describe('status codes', () => {
  it('401: expired credentials, and how to refresh them', async () => {
    const server = await serve({ '/api/v1/nodes/n1': (_req, res) => json(res, 401, status(401, 'Unauthorized', 'Unauthorized')) });
    const { t } = transport(configFor(server.url));
    const error = await failure(get(t));
    expect(error).toBeInstanceOf(ClusterError);
    expect(error.message).toMatch(/^reading node n1: the API server rejected the credentials of user "why-pending" \(401 Unauthorized\): they are missing, expired or revoked/);
    expect(error.message).toContain('kubectl get --raw /version');
    expect(error.message).not.toContain('secret-token-123');
    expect(server.requests).toHaveLength(1);
  });

  it('403 and 404 are left to the caller, with the Status message', async () => {
    const server = await serve({ '/api/v1/nodes': (_req, res) => json(res, 403, status(403, 'Forbidden', 'nodes is forbidden: User "alice" cannot list resource "nodes"')) });
    const { t } = transport(configFor(server.url));
    const forbidden = await failure(t.get({ path: '/api/v1/nodes', what: 'listing nodes' }));
    expect(forbidden).toBeInstanceOf(ApiStatusError);
    expect(forbidden).toMatchObject({ status: 403, reason: 'Forbidden', serverMessage: 'nodes is forbidden: User "alice" cannot list resource "nodes"' });
    const missing = await failure(t.get({ path: '/api/v1/other', what: 'x' }));
    expect(missing).toMatchObject({ status: 404, reason: 'NotFound' });
  });

  it('an answer that is not JSON says the address may be wrong', async () => {
    const server = await serve({ '/api/v1/nodes/n1': (_req, res) => res.end('<html>hello</html>') });
    const { t } = transport(configFor(server.url));
    expect((await failure(get(t))).message).toMatch(/is not JSON .*is the server address right\?/);
  });

  it('gzip answers are read', async () => {
    const { gzipSync } = await import('node:zlib');
    const server = await serve({
      '/api/v1/nodes/n1': (req, res) => {
        expect(req.headers['accept-encoding']).toContain('gzip');
        const body = gzipSync(JSON.stringify(node('n1')));
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length });
        res.end(body);
      },
    });
    const { t } = transport(configFor(server.url));
    expect(await get(t)).toEqual(node('n1'));
  });
});

describe('the memory of a page', () => {
  it('frees a large gzip page\'s buffers once it is read, and the answer is whole', async () => {
    const { gzipSync } = await import('node:zlib');
    // 3,000 nodes with a long label each: about 3 MB inflated, so zlib hands over whole 1 MB buffers.
    const items = Array.from({ length: 3000 }, (_, i) => ({ ...node(`n${i}`), metadata: { name: `n${i}`, labels: { note: 'x'.repeat(900) } } }));
    const body = gzipSync(JSON.stringify({ kind: 'NodeList', apiVersion: 'v1', metadata: {}, items }));
    const server = await serve({
      '/api/v1/nodes': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length });
        res.end(body);
      },
    });
    const { t } = transport(configFor(server.url));
    const detached: number[] = [];
    const transfer = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'transfer')?.value as (this: ArrayBuffer, length?: number) => ArrayBuffer;
    Object.defineProperty(ArrayBuffer.prototype, 'transfer', {
      configurable: true,
      writable: true,
      value(this: ArrayBuffer, length?: number) {
        detached.push(this.byteLength);
        return transfer.call(this, length);
      },
    });
    cleanups.push(() => Object.defineProperty(ArrayBuffer.prototype, 'transfer', { configurable: true, writable: true, value: transfer }));
    const read = await t.list<{ metadata: { name: string; labels: Record<string, string> } }>({ path: '/api/v1/nodes', what: 'listing nodes' });
    expect(read).toHaveLength(3000);
    expect(read[2999]?.metadata.labels['note']).toHaveLength(900);
    // zlib's whole output buffers, and the page joined from them.
    expect(detached.filter((n) => n === 1 << 20).length).toBeGreaterThanOrEqual(2);
    expect(detached.some((n) => n > 2_500_000)).toBe(true);
  });
});

describe('timeouts', () => {
  it('--request-timeout ends a request that never answers', async () => {
    const server = await serve({ '/api/v1/nodes/n1': () => undefined });
    const { t } = transport(configFor(server.url, { requestTimeoutMs: 200 }));
    const started = Date.now();
    const error = await failure(get(t));
    expect(error.message).toMatch(/^reading node n1: no complete answer from http:\/\/127\.0\.0\.1:\d+ within 200ms \(--request-timeout\)/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('--request-timeout also covers a body that stalls', async () => {
    const server = await serve({
      '/api/v1/nodes/n1': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
      },
    });
    const { t } = transport(configFor(server.url, { requestTimeoutMs: 200 }));
    expect((await failure(get(t))).message).toContain('(--request-timeout)');
  });

  it('a TLS handshake that never completes hits the connect timeout', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const sockets: net.Socket[] = [];
    silent.on('connection', (s) => sockets.push(s));
    cleanups.push(() => new Promise((resolve) => (sockets.forEach((s) => s.destroy()), silent.close(resolve))));
    const port = (silent.address() as net.AddressInfo).port;
    const { t } = transport(configFor(`https://127.0.0.1:${port}`, { insecureSkipTlsVerify: true }), { connectTimeoutMs: 200 });
    const error = await failure(get(t));
    expect(error.message).toMatch(/^reading node n1: could not connect to https:\/\/127\.0\.0\.1:\d+ within 200ms: check the server address/);
  });

  it('the connect timeout does not cut a slow answer on a connected socket', async () => {
    const server = await serve({ '/api/v1/nodes/n1': (_req, res) => setTimeout(() => json(res, 200, node('n1')), 400) });
    const { t } = transport(configFor(server.url), { connectTimeoutMs: 200 });
    expect(await get(t)).toEqual(node('n1'));
  });
});

describe('unreachable servers', () => {
  it('connection refused on a closed port', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const { t, waits } = transport(configFor(`http://127.0.0.1:${port}`));
    const error = await failure(get(t));
    expect(error).toBeInstanceOf(ClusterError);
    expect(error.message).toBe(
      `reading node n1: connection refused by http://127.0.0.1:${port}: check that the API server is running and that server http://127.0.0.1:${port} points at it (or pass --server)`,
    );
    expect(waits).toEqual([]);
  });

  it('DNS failure', async () => {
    const { t } = transport(configFor('https://api.why-pending.invalid:6443'));
    const error = await failure(get(t));
    expect(error.message).toMatch(/^reading node n1: cannot resolve host "api\.why-pending\.invalid" \(DNS lookup failed\): check the server address of server https:\/\/api\.why-pending\.invalid:6443, and your network or VPN$/);
  });
});

describe('TLS', () => {
  it('an unknown CA suggests --certificate-authority, and works with it or with --insecure-skip-tls-verify', async () => {
    const cert = selfSigned('localhost', true);
    cleanups.push(() => cert.cleanup());
    const server = await serve({ '/api/v1/nodes/n1': node('n1') }, cert);
    const plain = transport(configFor(server.url)).t;
    const error = await failure(get(plain));
    expect(error.message).toMatch(/^reading node n1: the certificate of https:\/\/127\.0\.0\.1:\d+ is signed by an unknown authority: .*--certificate-authority FILE .*--insecure-skip-tls-verify/);
    expect(await get(transport(configFor(server.url, { certificateAuthority: cert.certFile })).t)).toEqual(node('n1'));
    expect(await get(transport(configFor(server.url, { insecureSkipTlsVerify: true })).t)).toEqual(node('n1'));
  });

  it('a certificate for another name suggests --tls-server-name, which fixes it', async () => {
    const cert = selfSigned('api.cluster.test', false);
    cleanups.push(() => cert.cleanup());
    const server = await serve({ '/api/v1/nodes/n1': node('n1') }, cert);
    const error = await failure(get(transport(configFor(server.url, { certificateAuthority: cert.certFile })).t));
    expect(error.message).toMatch(/^reading node n1: the certificate of https:\/\/127\.0\.0\.1:\d+ is not valid for "127\.0\.0\.1" .*: pass --tls-server-name/);
    const fixed = transport(configFor(server.url, { certificateAuthority: cert.certFile, tlsServerName: 'api.cluster.test' })).t;
    expect(await get(fixed)).toEqual(node('n1'));
  });

  it('talking TLS to a plain HTTP server says so', async () => {
    const server = await serve({ '/api/v1/nodes/n1': node('n1') });
    const error = await failure(get(transport(configFor(server.url.replace('http:', 'https:'), { insecureSkipTlsVerify: true })).t));
    expect(error.message).toMatch(/TLS handshake with https:\/\/127\.0\.0\.1:\d+ failed .*http:\/\/ rather than https:\/\//);
  });

  it('goes through proxy-url with a CONNECT tunnel', async () => {
    const cert = selfSigned('localhost', true);
    cleanups.push(() => cert.cleanup());
    const server = await serve({ '/api/v1/nodes/n1': node('n1') }, cert);
    const proxy = await fakeProxy();
    const file = kubeconfigFile({ server: server.url, 'proxy-url': proxy.url, 'certificate-authority': cert.certFile });
    const { t } = transport(loadConfig(options({ kubeconfig: file }), {}));
    expect(await get(t)).toEqual(node('n1'));
    expect(await get(t)).toEqual(node('n1'));
    expect(proxy.seen).toEqual([`CONNECT 127.0.0.1:${server.port}`]);
  });

  it('HTTPS_PROXY from the environment is used, and NO_PROXY bypasses it', async () => {
    const cert = selfSigned('api.cluster.test', false);
    cleanups.push(() => cert.cleanup());
    const server = await serve({ '/api/v1/nodes/n1': node('n1') }, cert);
    const proxy = await fakeProxy();
    const file = kubeconfigFile({ server: `https://api.cluster.test:${server.port}`, 'certificate-authority': cert.certFile });
    // The name only the proxy can resolve (it sends every tunnel to 127.0.0.1).
    const { t } = transport(loadConfig(options({ kubeconfig: file }), { HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com' }));
    expect(await get(t)).toEqual(node('n1'));
    expect(proxy.seen).toEqual([`CONNECT api.cluster.test:${server.port}`]);
    const direct = transport(loadConfig(options({ kubeconfig: file }), { HTTPS_PROXY: proxy.url, NO_PROXY: '.test' })).t;
    expect((await failure(get(direct))).message).toContain('cannot resolve host "api.cluster.test"');
  });

  it('an http server goes through HTTP_PROXY with absolute URLs', async () => {
    const server = await serve({ '/api/v1/nodes/n1': node('n1') });
    const proxy = await fakeProxy();
    const file = kubeconfigFile({ server: `http://api.cluster.test:${server.port}` });
    const { t } = transport(loadConfig(options({ kubeconfig: file }), { HTTP_PROXY: proxy.url }));
    expect(await get(t)).toEqual(node('n1'));
    expect(proxy.seen).toEqual([`GET http://api.cluster.test:${server.port}/api/v1/nodes/n1`]);
  });

  it('a proxy that refuses the tunnel says which proxy', async () => {
    const proxy = await fakeProxy(403);
    const file = kubeconfigFile({ server: 'https://api.cluster.test:6443', 'proxy-url': proxy.url });
    const { t } = transport(loadConfig(options({ kubeconfig: file }), {}));
    const error = await failure(get(t));
    expect(error.message).toMatch(/^reading node n1: the proxy http:\/\/127\.0\.0\.1:\d+ refused the tunnel to api\.cluster\.test:6443 \(403 .*\): check proxy-url/);
  });
});

/** A forward proxy: CONNECT tunnels and absolute-URI requests, every host mapped to 127.0.0.1. */
async function fakeProxy(refuse?: number): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const proxy = http.createServer((req, res) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
    const target = new URL(req.url ?? '');
    const upstream = http.get({ host: '127.0.0.1', port: target.port, path: `${target.pathname}${target.search}`, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
  });
  proxy.on('connect', (req: http.IncomingMessage, client: net.Socket) => {
    seen.push(`CONNECT ${req.url ?? ''}`);
    if (refuse) {
      client.end(`HTTP/1.1 ${refuse} Forbidden\r\n\r\n`);
      return;
    }
    const port = Number((req.url ?? '').split(':').pop());
    const upstream = net.connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => (proxy.closeAllConnections(), proxy.close(resolve))));
  return { url: `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`, seen };
}

function kubeconfigFile(cluster: Record<string, unknown>, user: Record<string, unknown> = { token: 't' }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'why-pending-kc-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'config');
  writeFileSync(
    file,
    JSON.stringify({
      clusters: [{ name: 'c', cluster }],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
  );
  return file;
}

describe('connections and credentials', () => {
  it('reuses one kept-alive connection for sequential requests', async () => {
    const server = await serve({ '/api/v1/nodes/n1': node('n1') });
    const { t } = transport(configFor(server.url));
    for (let i = 0; i < 5; i++) await get(t);
    expect(server.connections).toBe(1);
  });

  it('bounds requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const server = await serve({
      '/api/v1/nodes/n1': (_req, res) => {
        inFlight++;
        most = Math.max(most, inFlight);
        setTimeout(() => {
          inFlight--;
          json(res, 200, node('n1'));
        }, 20);
      },
    });
    const { t } = transport(configFor(server.url), { concurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, () => get(t)));
    expect(most).toBe(3);
  });

  it('impersonation sends one Impersonate-Group header per group', async () => {
    const server = await serve({ '/api/v1/nodes/n1': node('n1') });
    const { t } = transport(configFor(server.url, { as: 'alice', asGroups: ['ops', 'dev'] }));
    await get(t);
    const raw = server.requests[0]?.rawHeaders ?? [];
    const pairs = raw.flatMap((v, i) => (i % 2 === 0 ? [[v.toLowerCase(), raw[i + 1]]] : []));
    expect(pairs.filter(([k]) => k === 'impersonate-user')).toEqual([['impersonate-user', 'alice']]);
    expect(pairs.filter(([k]) => k === 'impersonate-group')).toEqual([
      ['impersonate-group', 'ops'],
      ['impersonate-group', 'dev'],
    ]);
  });

  it('an exec credential plugin runs once, however many requests run in parallel', async () => {
    const server = await serve({ '/api/v1/nodes/n1': node('n1') });
    const dir = mkdtempSync(path.join(tmpdir(), 'why-pending-exec-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const counter = path.join(dir, 'runs');
    const plugin = path.join(dir, 'plugin.mjs');
    writeFileSync(
      plugin,
      `import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(counter)}, 'x');
await new Promise((r) => setTimeout(r, 100));
process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'exec-token' } }));`,
    );
    const file = path.join(dir, 'config');
    writeFileSync(
      file,
      JSON.stringify({
        clusters: [{ name: 'c', cluster: { server: server.url } }],
        users: [{ name: 'u', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: process.execPath, args: [plugin] } } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    const { t } = transport(loadConfig(options({ kubeconfig: file }), {}));
    await Promise.all(Array.from({ length: 10 }, () => get(t)));
    expect(readFileSync(counter, 'utf8')).toBe('x');
    expect(server.requests.every((r) => r.headers['authorization'] === 'Bearer exec-token')).toBe(true);
  });

  it('a missing exec plugin command names itself', async () => {
    const server = await serve({ '/api/v1/nodes/n1': node('n1') });
    const dir = mkdtempSync(path.join(tmpdir(), 'why-pending-exec-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'config');
    writeFileSync(
      file,
      JSON.stringify({
        clusters: [{ name: 'c', cluster: { server: server.url } }],
        users: [{ name: 'u', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'why-pending-no-such-plugin' } } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    const { t } = transport(loadConfig(options({ kubeconfig: file }), {}));
    const error = await failure(get(t));
    expect(error).toBeInstanceOf(ClusterError);
    expect(error.message).toBe('reading node n1: getting credentials for user "u": the exec plugin command "why-pending-no-such-plugin" was not found: install it, or fix users[].user.exec.command in the kubeconfig');
    expect(server.requests).toHaveLength(0);
  });
});
