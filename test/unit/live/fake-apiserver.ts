// A tiny stand-in for kube-apiserver on 127.0.0.1: routes by path, records every request and
// every connection, serves plain HTTP or HTTPS. Faults are written as route handlers.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type LiveConfig } from '../../../src/sources/live/config.js';
import type { LiveOptions } from '../../../src/sources/live/flags.js';

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen, nth: number) => void;

/** A handler, or an object served as 200 JSON. The route `*` serves every path without its own. */
export type Route = Handler | object;

export interface FakeApiServer {
  url: string;
  port: number;
  requests: Seen[];
  connections: number;
  /** Requests whose path starts with `prefix`. */
  hits(prefix: string): Seen[];
  route(pathname: string, route: Route): void;
  close(): Promise<void>;
}

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function status(code: number, reason: string, message: string): object {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message };
}

export function list(items: unknown[], kind = 'List', next?: string): object {
  return { kind, apiVersion: 'v1', metadata: { resourceVersion: '1', ...(next ? { continue: next } : {}) }, items };
}

export async function startFakeApiServer(routes: Record<string, Route> = {}, tls?: { key: Buffer; cert: Buffer }): Promise<FakeApiServer> {
  const table = new Map(Object.entries(routes));
  const counts = new Map<string, number>();
  const requests: Seen[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const seen: Seen = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, rawHeaders: req.rawHeaders };
    requests.push(seen);
    const route = table.get(url.pathname) ?? table.get('*');
    const nth = (counts.get(url.pathname) ?? 0) + 1;
    counts.set(url.pathname, nth);
    if (route === undefined) return json(res, 404, status(404, 'NotFound', `${url.pathname} not found`));
    if (typeof route === 'function') return (route as Handler)(req, res, seen, nth);
    json(res, 200, route);
  };
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, handle) : http.createServer(handle);
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    get connections() {
      return connections;
    },
    hits: (prefix) => requests.filter((r) => r.path.startsWith(prefix)),
    route: (pathname, route) => void table.set(pathname, route),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Options as the CLI would produce them, with kubectl's defaults. */
export function options(overrides: Partial<LiveOptions> = {}): LiveOptions {
  return { requestTimeoutMs: 0, asGroups: [], insecureSkipTlsVerify: false, ...overrides };
}

/** A LiveConfig for `server` with a bearer token and no kubeconfig file at all. */
export function configFor(server: string, overrides: Partial<LiveOptions> = {}): LiveConfig {
  return loadConfig(options({ server, token: 'secret-token-123', ...overrides }), {});
}

export interface Certificate {
  dir: string;
  key: Buffer;
  cert: Buffer;
  certFile: string;
  cleanup(): void;
}

/** A self-signed certificate for `name` (and 127.0.0.1 when `withIp`), made by the openssl CLI. */
export function selfSigned(name: string, withIp: boolean): Certificate {
  const dir = mkdtempSync(path.join(tmpdir(), 'why-pending-tls-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  const san = `subjectAltName=DNS:${name}${withIp ? ',IP:127.0.0.1' : ''}`;
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', `/CN=${name}`, '-addext', san], { stdio: 'ignore' });
  return { dir, key: readFileSync(keyFile), cert: readFileSync(certFile), certFile, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
