// The reference read of the live benchmark: a raw paged LIST of every pod, one page after
// another (limit 500, gzip, like curl --compressed but with a non-curl User-Agent: the
// apiserver pretty-prints JSON for curl). No JSON.parse: the continue token is taken from the
// head of each page. Run with plain node (type stripping), no loader:
//   node raw-list.ts SERVER TOKEN CAFILE [PATH]
// prints one line of JSON: pages, bytes, seconds.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { createGunzip } from 'node:zlib';

const [server, token, caFile, path = '/api/v1/pods'] = process.argv.slice(2);
if (!server || !token || !caFile) throw new Error('usage: raw-list.ts SERVER TOKEN CAFILE [PATH]');
const base = new URL(server);
const agent = new https.Agent({ keepAlive: true, ca: readFileSync(caFile) });

function page(cont: string | undefined): Promise<{ next: string | undefined; bytes: number }> {
  const query = new URLSearchParams({ limit: '500', ...(cont ? { continue: cont } : {}) });
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: base.hostname, port: base.port, path: `${path}?${query.toString()}`, agent, headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'accept-encoding': 'gzip', 'user-agent': 'why-pending-bench-raw-list' } },
      (res) => {
        const body = /gzip/.test(String(res.headers['content-encoding'] ?? '')) ? res.pipe(createGunzip()) : res;
        let head = '';
        let bytes = 0;
        body.on('data', (chunk: Buffer) => {
          if (head.length < 4096) head += chunk.toString('utf8', 0, Math.min(chunk.length, 4096));
          bytes += chunk.length;
        });
        body.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}: ${head.slice(0, 300)}`));
          const match = /"continue":"([^"]*)"/.exec(head.slice(0, head.indexOf('"items"') >>> 0));
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
let next: string | undefined;
do {
  const got = await page(next);
  pages++;
  bytes += got.bytes;
  next = got.next;
} while (next);
console.log(JSON.stringify({ pages, bytes, seconds: (performance.now() - start) / 1000 }));
agent.destroy();
