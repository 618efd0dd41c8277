// The reference read of the live benchmark: a raw paged LIST of every pod, one page after
// another (limit 500, gzip, like curl --compressed but with a non-curl User-Agent: the
// apiserver pretty-prints JSON for curl). No JSON.parse: the continue token is taken from the
// head of each page. Run with plain node (type stripping), no loader:
//   node raw-list.ts [--rv0] [--protobuf] [--width N] [--limit N] [--field-selector S] SERVER TOKEN CAFILE [PATH...]
// --rv0 asks for resourceVersion=0 (served from the watch cache, any version at hand);
// --protobuf for the protobuf encoding (its continue token, base64 JSON, is found as `eyJ...`);
// several PATHs (one per namespace, say) are read N at a time; --field-selector narrows the LIST
// server-side (the nominated pods' read); --limit sets the page size (500). Prints one line of JSON.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';

const { values: opts, positionals } = parseArgs({ allowPositionals: true, options: { rv0: { type: 'boolean', default: false }, protobuf: { type: 'boolean', default: false }, width: { type: 'string', default: '1' }, limit: { type: 'string', default: '500' }, exact: { type: 'string' }, 'field-selector': { type: 'string' } } });
const [server, token, caFile, ...pathsGiven] = positionals;
if (!server || !token || !caFile) throw new Error('usage: raw-list.ts [--rv0] [--protobuf] [--width N] SERVER TOKEN CAFILE [PATH...]');
const paths = pathsGiven.length > 0 ? pathsGiven : ['/api/v1/pods'];
const base = new URL(server);
const agent = new https.Agent({ keepAlive: true, ca: readFileSync(caFile) });
const accept = opts.protobuf ? 'application/vnd.kubernetes.protobuf' : 'application/json';

function page(path: string, cont: string | undefined): Promise<{ next: string | undefined; bytes: number }> {
  const query = new URLSearchParams({ limit: opts.limit, ...(opts['field-selector'] ? { fieldSelector: opts['field-selector'] } : {}), ...(opts.rv0 ? { resourceVersion: '0' } : {}), ...(opts.exact && !cont ? { resourceVersion: opts.exact, resourceVersionMatch: 'Exact' } : {}), ...(cont ? { continue: cont } : {}) });
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: base.hostname, port: base.port, path: `${path}?${query.toString()}`, agent, headers: { authorization: `Bearer ${token}`, accept, 'accept-encoding': 'gzip', 'user-agent': 'why-pending-bench-raw-list' } },
      (res) => {
        const body = /gzip/.test(String(res.headers['content-encoding'] ?? '')) ? res.pipe(createGunzip()) : res;
        let head = '';
        let bytes = 0;
        body.on('data', (chunk: Buffer) => {
          if (head.length < 4096) head += chunk.toString('latin1', 0, Math.min(chunk.length, 4096));
          bytes += chunk.length;
        });
        body.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}: ${head.slice(0, 300)}`));
          const match = opts.protobuf ? /(eyJ[A-Za-z0-9+/=_-]+)/.exec(head) : /"continue":"([^"]*)"/.exec(head.slice(0, head.indexOf('"items"') >>> 0));
          resolve({ next: match?.[1] || undefined, bytes });
        });
        body.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const start = performance.now();
let pages = 0;
let bytes = 0;
const todo = [...paths];
const worker = async () => {
  for (let path = todo.shift(); path !== undefined; path = todo.shift()) {
    let next: string | undefined;
    do {
      const got = await page(path, next);
      pages++;
      bytes += got.bytes;
      next = got.next;
    } while (next);
  }
};
await Promise.all(Array.from({ length: Number(opts.width) }, worker));
console.log(JSON.stringify({ pages, bytes, seconds: (performance.now() - start) / 1000 }));
agent.destroy();
