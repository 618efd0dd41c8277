// Proxies, as kubectl (Go's net/http) uses them: the cluster's `proxy-url` when the kubeconfig
// sets one; otherwise HTTPS_PROXY (https servers) or HTTP_PROXY (http servers), uppercase before
// lowercase, with NO_PROXY exceptions (golang.org/x/net/http/httpproxy): `*`, IPs, CIDRs, and
// domains (`example.com` covers it and its subdomains, `.example.com` only subdomains), each
// optionally with a port. localhost and loopback addresses never go through a proxy from the
// environment. HTTPS targets are reached through an HTTP CONNECT tunnel; the CONNECT goes to the
// proxy, never to the API server.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { ClusterError } from '../../errors.js';
import type { Env } from './config.js';
import { redactUrl } from './config.js';

export interface ProxyChoice {
  url: URL;
  from: 'proxy-url' | 'HTTPS_PROXY' | 'HTTP_PROXY';
}

function firstSet(env: Env, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name];
    if (value) return { name, value };
  }
  return undefined;
}

function parseProxyUrl(text: string, from: string): URL {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  try {
    return new URL(withScheme);
  } catch {
    throw new ClusterError(`${from} "${redactUrl(text)}" is not a valid proxy URL`);
  }
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function ipInCidr(ip: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/');
  const bits = Number(bitsText);
  if (!base || !Number.isInteger(bits)) return false;
  const family = net.isIPv4(base) ? 'ipv4' : net.isIPv6(base) ? 'ipv6' : undefined;
  if (!family || (family === 'ipv4') !== net.isIPv4(ip)) return false;
  const list = new net.BlockList();
  list.addSubnet(base, bits, family);
  return list.check(ip, family);
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  if (net.isIPv6(host)) return host === '::1' || /^::ffff:127\./i.test(host);
  return false;
}

/** Whether NO_PROXY exempts host:port (httpproxy's useProxy, without the loopback rule). */
export function noProxyMatches(noProxy: string, host: string, port: string): boolean {
  const target = stripBrackets(host.toLowerCase()).replace(/\.$/, '');
  for (const raw of noProxy.split(',')) {
    let entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    if (entry.includes('/') && (net.isIP(target) !== 0)) {
      if (ipInCidr(target, entry)) return true;
      continue;
    }
    let entryPort = '';
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      entry = bracketed[1] ?? '';
      entryPort = bracketed[2] ?? '';
    } else if (net.isIP(entry) === 0) {
      const colon = entry.lastIndexOf(':');
      if (colon !== -1) {
        entryPort = entry.slice(colon + 1);
        entry = entry.slice(0, colon);
      }
    }
    if (entryPort && entryPort !== port) continue;
    if (net.isIP(entry) !== 0) {
      if (entry === target) return true;
      continue;
    }
    if (entry.startsWith('*.')) entry = entry.slice(1);
    if (entry.startsWith('.')) {
      if (target.endsWith(entry)) return true;
    } else if (target === entry || target.endsWith(`.${entry}`)) {
      return true;
    }
  }
  return false;
}

/** The proxy for requests to `server`, or undefined for a direct connection. */
export function chooseProxy(server: URL, proxyUrl: string | undefined, env: Env): ProxyChoice | undefined {
  if (proxyUrl) return { url: parseProxyUrl(proxyUrl, 'proxy-url'), from: 'proxy-url' };
  const isHttps = server.protocol === 'https:';
  const set = isHttps ? firstSet(env, ['HTTPS_PROXY', 'https_proxy']) : firstSet(env, ['HTTP_PROXY', 'http_proxy']);
  if (!set) return undefined;
  const host = stripBrackets(server.hostname);
  if (isLoopback(host)) return undefined;
  const port = server.port || (isHttps ? '443' : '80');
  const noProxy = firstSet(env, ['NO_PROXY', 'no_proxy'])?.value ?? '';
  if (noProxyMatches(noProxy, host, port)) return undefined;
  return { url: parseProxyUrl(set.value, set.name), from: isHttps ? 'HTTPS_PROXY' : 'HTTP_PROXY' };
}

export function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined;
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${Buffer.from(credentials).toString('base64')}`;
}

/** A failure between us and the proxy, worded by errors.ts. */
export class ProxyError extends Error {
  override name = 'ProxyError';
  constructor(
    message: string,
    readonly proxy: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** An https.Agent that reaches every host through an HTTP(S) proxy's CONNECT tunnel. */
export class TunnelAgent extends https.Agent {
  constructor(
    private readonly proxy: URL,
    options: https.AgentOptions,
  ) {
    super(options);
  }

  override createConnection(options: https.RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const done = callback ?? (() => undefined);
    const host = options.host ?? options.hostname ?? 'localhost';
    const port = Number(options.port ?? 443);
    const authority = `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
    const proxyIsTls = this.proxy.protocol === 'https:';
    const authorization = proxyAuthorization(this.proxy);
    const shown = redactUrl(this.proxy.toString()).replace(/\/$/, '');
    const connect = (proxyIsTls ? https : http).request({
      host: stripBrackets(this.proxy.hostname),
      port: Number(this.proxy.port || (proxyIsTls ? 443 : 80)),
      method: 'CONNECT',
      path: authority,
      agent: false,
      headers: { host: authority, ...(authorization ? { 'proxy-authorization': authorization } : {}) },
    });
    connect.once('connect', (response, socket) => {
      if (response.statusCode !== 200) {
        socket.destroy();
        done(new ProxyError(`the proxy ${shown} refused the tunnel to ${authority} (${response.statusCode ?? 0} ${response.statusMessage ?? ''})`, shown, response.statusCode), undefined as unknown as Duplex);
        return;
      }
      const tlsOptions: tls.ConnectionOptions = {
        ...(options as tls.ConnectionOptions),
        socket,
        servername: options.servername ?? (net.isIP(host) === 0 ? host : undefined),
      };
      delete (tlsOptions as { agent?: unknown }).agent;
      done(null, tls.connect(tlsOptions));
    });
    connect.once('error', (error: NodeJS.ErrnoException) => {
      done(new ProxyError(`cannot reach the proxy ${shown}: ${error.code ?? error.message}`, shown), undefined as unknown as Duplex);
    });
    connect.end();
    return undefined;
  }
}
