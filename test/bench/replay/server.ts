// The replay server, a process of its own (its CPU and memory are not the measured reader's):
//   node --import tsx server.ts --store DIR [--scale 1.5] --cert FILE --key FILE --token T
// Serves a recording (store.ts), scaled by renaming when --scale > 1 (scale.ts), over HTTPS on
// 127.0.0.1 as the apiserver would answer the GETs why-pending and the reference reads make:
// LISTs paged with limit/continue, the field and label selectors, JSON, protobuf or metadata
// only as the Accept header asks, gzip as the apiserver does it; single objects; /version, /api
// and /apis as recorded. Anything else is a 404 (or the apiserver's 400 for a field it cannot
// select on) and is logged. Bearer token only. GET /_replay/requests hands over (and forgets) the
// requests served since the last call, for the bench to count. Prints one line of JSON when
// listening: { url, pods, nodes, namespaces, copies, renamed }.
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { BadRequest, Pager, type Format, type ServedCollection } from './pages.js';
import { scale } from './scale.js';
import { jsonObject } from './json-items.js';
import { loadCollection, readManifest, type LoadedItem } from './store.js';

const { values: args } = parseArgs({ options: { store: { type: 'string' }, scale: { type: 'string', default: '1' }, cert: { type: 'string' }, key: { type: 'string' }, token: { type: 'string' }, port: { type: 'string', default: '0' } } });
if (!args.store || !args.cert || !args.key || !args.token) throw new Error('usage: server.ts --store DIR --cert FILE --key FILE --token T [--scale F] [--port P]');
const store = args.store;
const manifest = readManifest(store);
const factor = Number(args.scale);

const collections = new Map<string, { served: ServedCollection; pager: Pager }>();
let copies = 0;
let renamed: Record<string, string[]> = {};
const loaded = new Map<string, LoadedItem[]>();
for (const name of Object.keys(manifest.collections)) loaded.set(name, manifest.collections[name]?.served ? loadCollection(store, name) : []);
if (factor > 1) {
  const keep = new Set(manifest.cases.map((c) => c.namespace));
  const scaled = scale(loaded.get('pods') ?? [], loaded.get('namespaces') ?? [], factor, keep);
  loaded.set('pods', scaled.pods);
  loaded.set('namespaces', scaled.namespaces);
  copies = scaled.copies;
  renamed = Object.fromEntries(scaled.renamed);
}
for (const [name, recorded] of Object.entries(manifest.collections)) {
  const apiVersion = recorded.group ? `${recorded.group}/${recorded.version}` : recorded.version;
  const served: ServedCollection = { recorded, apiVersion, items: loaded.get(name) ?? [] };
  collections.set(`${recorded.group}/${recorded.version}/${recorded.plural}`, { served, pager: new Pager(served) });
}

interface Served {
  kind: string;
  status: number;
  items: number;
  bytes: number;
  path: string;
}
let log: Served[] = [];

function status(res: http.ServerResponse, code: number, reason: string, message: string): void {
  const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The first media type of Accept this server can answer with, for a collection with or without protobuf. */
function formatFor(accept: string, protobuf: boolean): Format | undefined {
  for (const type of accept.split(',').map((t) => t.trim())) {
    const [media, ...params] = type.split(';').map((p) => p.trim());
    if (params.some((p) => p === 'as=PartialObjectMetadataList')) return 'metadata';
    if (params.some((p) => p.startsWith('as='))) continue;
    if (media === 'application/vnd.kubernetes.protobuf' && protobuf) return 'protobuf';
    if (media === 'application/json' || media === '*/*' || media === 'application/*') return 'json';
  }
  return undefined;
}

/** What a request was, in the words of bench:live's request counts. */
function kindOf(verb: string, plural: string, query: URLSearchParams): string {
  const field = query.get('fieldSelector') ?? '';
  const nominated = plural === 'pods' && /(^|,)status\.nominatedNodeName!=/.test(field);
  const perNode = plural === 'pods' && /(^|,)spec\.nodeName=[^,]/.test(field);
  return `${verb} ${plural}${perNode ? ' (one node)' : nominated ? ' (nominated to a node)' : ''}`;
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<Served> {
  const url = new URL(req.url ?? '/', 'https://replay');
  const served = (kind: string, code: number, items = 0, bytes = 0): Served => ({ kind, status: code, items, bytes, path: `${url.pathname}${url.search}` });
  if (req.headers.authorization !== `Bearer ${args.token ?? ''}`) {
    status(res, 401, 'Unauthorized', 'Unauthorized');
    return served('unauthorized', 401);
  }
  if (req.method !== 'GET') {
    status(res, 405, 'MethodNotAllowed', `${req.method ?? ''} is not replayed`);
    return served(`${req.method ?? ''} ${url.pathname}`, 405);
  }
  if (url.pathname === '/_replay/requests') {
    const body = JSON.stringify(log);
    log = [];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
    return served('bench', 200);
  }
  const document = manifest.documents[url.pathname];
  if (document !== undefined) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(document) });
    res.end(document);
    return served(`get ${url.pathname}`, 200);
  }
  const parts = url.pathname.split('/').filter((p) => p !== '').map(decodeURIComponent);
  const [root, ...restAll] = parts;
  const [group, version, ...rest] = root === 'api' ? ['', ...restAll] : root === 'apis' ? restAll : [];
  let namespace: string | undefined;
  let plural = rest[0];
  let name = rest[1];
  if (rest[0] === 'namespaces' && rest.length >= 3) [, namespace, plural, name] = rest;
  const found = collections.get(`${group ?? ''}/${version ?? ''}/${plural ?? ''}`);
  if (!found || !found.served.recorded.served || rest.length > (namespace !== undefined ? 4 : 2) || (namespace !== undefined && !found.served.recorded.namespaced)) {
    status(res, 404, 'NotFound', 'the server could not find the requested resource');
    process.stderr.write(`[replay server] 404 ${url.pathname}${url.search}\n`);
    return served(`not found ${url.pathname}`, 404);
  }
  const { recorded } = found.served;
  const format = formatFor(String(req.headers.accept ?? 'application/json'), recorded.protobuf);
  if (!format) {
    status(res, 406, 'NotAcceptable', `only application/json${recorded.protobuf ? ' and application/vnd.kubernetes.protobuf' : ''} are recorded for ${plural ?? ''}`);
    return served(`not acceptable ${url.pathname}`, 406);
  }
  if (name !== undefined) {
    const item = found.pager.get(recorded.namespaced ? namespace : undefined, name);
    if (!item) {
      status(res, 404, 'NotFound', `${plural ?? ''} "${name}" not found`);
      return served(kindOf('get', plural ?? '', url.searchParams), 404);
    }
    const body = jsonObject(recorded.kind, found.served.apiVersion, item.json);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
    return served(kindOf('get', plural ?? '', url.searchParams), 200, 1, body.length);
  }
  if (url.searchParams.get('watch') === '1' || url.searchParams.get('watch') === 'true') {
    status(res, 400, 'BadRequest', 'a WATCH is not replayed');
    return served(`watch ${plural ?? ''}`, 400);
  }
  try {
    const token = url.searchParams.get('continue');
    const page = await found.pager.page({
      ...(namespace !== undefined ? { namespace } : {}),
      fieldSelector: url.searchParams.get('fieldSelector') ?? '',
      labelSelector: url.searchParams.get('labelSelector') ?? '',
      limit: Number(url.searchParams.get('limit') ?? '0') || 0,
      ...(token ? { continueToken: token } : {}),
      format,
      gzip: /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')),
    });
    const contentType = format === 'protobuf' ? 'application/vnd.kubernetes.protobuf' : 'application/json';
    res.writeHead(200, { 'content-type': contentType, 'content-length': page.body.length, ...(page.gzipped ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {}) });
    res.end(page.body);
    return served(kindOf('list', plural ?? '', url.searchParams), 200, page.items, page.body.length);
  } catch (error) {
    if (!(error instanceof BadRequest) && !(error instanceof Error && /selector/.test(error.message))) throw error;
    status(res, 400, 'BadRequest', (error as Error).message);
    process.stderr.write(`[replay server] 400 ${url.pathname}${url.search}: ${(error as Error).message}\n`);
    return served(`bad request ${url.pathname}`, 400);
  }
}

const server = https.createServer({ cert: readFileSync(args.cert), key: readFileSync(args.key), keepAliveTimeout: 30_000 }, (req, res) => {
  handle(req, res).then(
    (entry) => {
      if (entry.kind !== 'bench') log.push(entry);
    },
    (error: unknown) => {
      process.stderr.write(`[replay server] ${req.url ?? ''}: ${String((error as Error).stack ?? error)}\n`);
      if (!res.headersSent) status(res, 500, 'InternalError', String(error));
      else res.destroy();
    },
  );
});
server.listen(Number(args.port), '127.0.0.1', () => {
  const port = (server.address() as AddressInfo).port;
  const count = (name: string) => collections.get(name)?.served.items.length ?? 0;
  process.stdout.write(`${JSON.stringify({ url: `https://127.0.0.1:${port}`, pods: count('/v1/pods'), nodes: count('/v1/nodes'), namespaces: count('/v1/namespaces'), copies, renamed })}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => process.exit(0));
