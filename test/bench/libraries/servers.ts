// The servers of the libraries side by side, in a process of their own so that the clients'
// time and memory are theirs alone (the two share the machine's cores, as a CLI shares them
// with a local apiserver):
// - an apiserver's paged LIST of pods (HTTP): GET /api/v1/pods?limit=500[&continue=N] answers
//   page N of the recorded pages (PAGES_DIR/page-NNNN.json.gz, each a PodList as the apiserver
//   writes it, its continue token inside), gzipped when the client accepts gzip, as the
//   apiserver does for an answer this large;
// - an apiserver's GET of one pod (HTTPS, a self-signed certificate for api.bench.test), and an
//   HTTP proxy that opens CONNECT tunnels to it, for the proxy tunnel's comparison. The name
//   resolves nowhere but in the proxy, which sends every tunnel to 127.0.0.1: the clients reach
//   the server through the proxy or not at all. (A server named by its IP address is not used:
//   https-proxy-agent checks such a server's certificate against "localhost".)
// Prints one line of JSON (the three URLs and the CA file) once listening; stops when its
// standard input closes.
//   node servers.ts PAGES_DIR POD_JSON_FILE WORK_DIR
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

const [pagesDir, podFile, workDir] = process.argv.slice(2);
if (!pagesDir || !podFile || !workDir) throw new Error('usage: servers.ts PAGES_DIR POD_JSON_FILE WORK_DIR');

const pages = readdirSync(pagesDir)
  .filter((f) => f.endsWith('.json.gz'))
  .sort()
  .map((f) => readFileSync(path.join(pagesDir, f)));
const plain = new Map<number, Buffer>();

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

const list = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const page = Number(url.searchParams.get('continue') ?? '0');
  const body = url.pathname === '/api/v1/pods' && url.searchParams.get('limit') === '500' ? pages[page] : undefined;
  if (!body) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"kind":"Status","status":"Failure","reason":"NotFound","code":404}');
    return;
  }
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length }).end(body);
    return;
  }
  let text = plain.get(page);
  if (!text) plain.set(page, (text = gunzipSync(body)));
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length }).end(text);
});

const keyFile = path.join(workDir, 'key.pem');
const certFile = path.join(workDir, 'cert.pem');
execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=api.bench.test', '-addext', 'subjectAltName=DNS:api.bench.test'], { stdio: 'ignore' });
const pod = readFileSync(podFile);
const api = https.createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile), keepAliveTimeout: 60_000 }, (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': pod.length }).end(pod);
});

// A forward proxy's CONNECT: a TCP tunnel to 127.0.0.1 at the port named, bytes copied both ways.
const proxy = http.createServer((_req, res) => res.writeHead(405).end());
proxy.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
  const port = Number((req.url ?? '').split(':').at(-1));
  const upstream = net.connect(port, '127.0.0.1', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
});

const [listPort, apiPort, proxyPort] = await Promise.all([listen(list), listen(api), listen(proxy)]);
console.log(JSON.stringify({ listUrl: `http://127.0.0.1:${listPort}`, apiUrl: `https://api.bench.test:${apiPort}`, proxyUrl: `http://127.0.0.1:${proxyPort}`, caFile: certFile, pages: pages.length }));
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
