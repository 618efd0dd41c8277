// One side of "proxy tunnel", in a process of its own (measure.ts): COUNT GETs of one pod, one
// after another, to servers.ts's HTTPS server through its HTTP proxy's CONNECT tunnel, over
// kept-alive connections; the first GET (tunnel, TLS handshake, request) timed apart. `ours` is
// the CLI's path: Transport.get with the kubeconfig's proxy-url (config.ts, proxy.ts's
// TunnelAgent). The agents alone, in the same loop of https.request: `ours-agent` is proxy.ts's
// TunnelAgent, `https-proxy-agent` the library's HttpsProxyAgent.
// Plain node (type stripping): the build's JavaScript and the cached library, by path.
//   node proxy-child.ts ours|ours-agent|https-proxy-agent API_URL PROXY_URL CA_FILE KUBECONFIG COUNT DIST LIBRARIES
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type * as Config from '../../../src/sources/live/config.js';
import type * as ProxyModule from '../../../src/sources/live/proxy.js';
import type * as TransportModule from '../../../src/sources/live/transport.js';
import type * as ChildStats from './child-stats.js';

// Plain node runs this file (type stripping): a sibling .ts module is loaded by its URL.
const { report } = (await import(new URL('./child-stats.ts', import.meta.url).href)) as typeof ChildStats;
const [side, apiUrl, proxyUrl, caFile, kubeconfig, countText, dist, libraries] = process.argv.slice(2);
if (!apiUrl || !proxyUrl || !caFile || !kubeconfig || !countText || !dist || !libraries) {
  throw new Error('usage: proxy-child.ts ours|ours-agent|https-proxy-agent API_URL PROXY_URL CA_FILE KUBECONFIG COUNT DIST LIBRARIES');
}
const count = Number(countText);
const podPath = '/api/v1/namespaces/team-00/pods/svc-0-000000';
const distModule = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(dist, file)).href)) as T;
const agentOptions = { keepAlive: true, keepAliveMsecs: 30_000, maxSockets: 8 };

/**
 * One GET through `agent`, its JSON parsed, as the transport parses an answer. The protocol is
 * given, as a URL would give it: without it, agent-base (under https-proxy-agent) tells an HTTPS
 * request by its stack, which differs when the socket is freed, and no socket is ever reused.
 */
function getWith(agent: http.Agent, ca: Buffer): Promise<unknown> {
  const target = new URL(apiUrl as string);
  return new Promise((resolve, reject) => {
    const req = https.request({ protocol: 'https:', host: target.hostname, port: target.port, path: podPath, agent, ca, headers: { accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : reject(new Error(`HTTP ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function load(): Promise<{ get: () => Promise<unknown>; close: () => void }> {
  const ca = readFileSync(caFile as string);
  if (side === 'ours') {
    const { loadConfig } = await distModule<typeof Config>('sources/live/config.js');
    const { Transport } = await distModule<typeof TransportModule>('sources/live/transport.js');
    const transport = new Transport(loadConfig({ kubeconfig, requestTimeoutMs: 0, asGroups: [], insecureSkipTlsVerify: false }, {}));
    return { get: () => transport.get({ path: podPath, what: 'reading a pod' }), close: () => transport.close() };
  }
  if (side === 'ours-agent') {
    const { TunnelAgent } = await distModule<typeof ProxyModule>('sources/live/proxy.js');
    const agent = new TunnelAgent(new URL(proxyUrl as string), agentOptions);
    return { get: () => getWith(agent, ca), close: () => agent.destroy() };
  }
  if (side === 'https-proxy-agent') {
    const { HttpsProxyAgent } = createRequire(libraries as string)('https-proxy-agent') as { HttpsProxyAgent: new (proxy: string, options: https.AgentOptions) => https.Agent };
    const agent = new HttpsProxyAgent(proxyUrl as string, agentOptions);
    return { get: () => getWith(agent, ca), close: () => agent.destroy() };
  }
  throw new Error(`unknown side ${side}`);
}

const client = await load();
const loaded = performance.now();
const names = new Set<string>();
const nameOf = (pod: unknown) => String((pod as { metadata?: { name?: string } }).metadata?.name);
names.add(nameOf(await client.get()));
const first = performance.now();
for (let i = 1; i < count; i++) names.add(nameOf(await client.get()));
const done = performance.now();
client.close();
report(loaded, done, { firstMs: first - loaded, gets: count, names: [...names] });
