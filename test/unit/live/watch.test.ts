// --watch's watcher against a server that restarts (its watches end with it, connections are
// refused until it is back, and each watch resumes from where it was) or has compacted the
// history a watch would resume from (issue 33).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { watcher } from '../../../src/sources/live/watch.js';
import { configFor } from './fake-apiserver.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Server {
  /** The pods watches it was asked for, by their resourceVersion. */
  podWatches: string[];
  stop(): Promise<void>;
}

/**
 * An apiserver's watches on `port`: pods as `pods` says (lines to write, then keep the stream
 * open), events and nodes open and silent.
 */
async function serve(port: number, pods: (rv: string) => string[]): Promise<Server & { port: number }> {
  const podWatches: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.writeHead(200, { 'content-type': 'application/json' });
    if (url.pathname === '/api/v1/namespaces/shop/pods') {
      const rv = url.searchParams.get('resourceVersion') ?? '';
      podWatches.push(rv);
      for (const line of pods(rv)) res.write(`${line}\n`);
    } else res.flushHeaders();
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  cleanups.push(stop);
  return { port: (server.address() as AddressInfo).port, podWatches, stop };
}

const bookmark = (rv: string) => JSON.stringify({ type: 'BOOKMARK', object: { kind: 'Pod', metadata: { resourceVersion: rv } } });
const tooOld = JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 10 (376)', reason: 'Expired', code: 410 } });
const added = (name: string) => JSON.stringify({ type: 'ADDED', object: { kind: 'Pod', metadata: { name, resourceVersion: '31' } } });

describe('watcher', () => {
  it('waits for a server that restarts, and resumes each watch from where it was', async () => {
    const before = await serve(0, () => [bookmark('20')]);
    const w = watcher(configFor(`http://127.0.0.1:${before.port}`), { namespace: 'shop', pod: 'web-0' });
    cleanups.push(() => w.close());
    const change = w.changed(['10', '10', '10']);
    const outcome = change.then(
      (what) => ({ what }),
      (error: unknown) => ({ error: String(error) }),
    );
    await expect.poll(() => before.podWatches).toEqual(['10']);
    await new Promise((r) => setTimeout(r, 50)); // the bookmark read
    // The restart: every watch cut, connections refused for a while, then the server is back.
    await before.stop();
    await new Promise((r) => setTimeout(r, 600));
    const after = await serve(before.port, (rv) => (rv === '20' ? [added('web-0')] : []));
    expect(await outcome).toEqual({ what: 'Pod web-0' });
    // From the bookmark's resourceVersion: a change made while it was away would be seen.
    expect(after.podWatches).toEqual(['20']);
  });

  it('says the history expired when the server answers an expired resourceVersion with a 410 event', async () => {
    // As an apiserver does: 200, then one ERROR event, for a watch etcd compacted past or from before a restart.
    const server = await serve(0, () => [tooOld]);
    const w = watcher(configFor(`http://127.0.0.1:${server.port}`), { namespace: 'shop', pod: 'web-0' });
    cleanups.push(() => w.close());
    expect(await w.changed(['10', '10', '10'])).toBe('history expired');
  });
});
