// The one way a request leaves why-pending. It sends GET and nothing else: `request` refuses
// every other verb before anything touches the network. Around that:
// - credentials from client-node (token, token-file, client certificates, exec plugins, auth
//   providers), applied one request at a time so that an exec plugin runs once per expiry, and
//   a first request that completes before any other starts (the warm-up);
// - keep-alive agents (client-node's own fetch path builds a new connection pool per request
//   whenever a CA is configured), at most `concurrency` requests in flight;
// - a connect timeout (TCP, proxy tunnel and TLS handshake), and --request-timeout per request;
// - 429 and 5xx retried with backoff that honours Retry-After, and dropped connections retried,
//   all within a few tries; gzip accepted; paged LISTs (`limit` + `continue`).
import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { ClusterError } from '../../errors.js';
import type { LiveConfig } from './config.js';
import {
  ApiStatusError,
  ConnectTimeout,
  CredentialError,
  describeFault,
  isDroppedConnection,
  RequestTimeout,
  serverUnavailable,
  unauthorized,
  type FaultContext,
} from './errors.js';
import { Kubeconfig } from './kubeconfig.js';
import { Limiter } from './limit.js';
import { withoutArrayMembers } from './unread-members.js';
import { cordonEntries } from '../cordon.js';
import { continueInProtobufHead, decodeStatus, protobufMediaType } from './protobuf/envelope.js';
import type { PageBytes } from './protobuf/pieces.js';
import { ProtobufError } from './protobuf/wire.js';
import { chooseProxy, proxyAuthorization, TunnelAgent, type ProxyChoice } from './proxy.js';

export interface TransportOptions {
  /** TCP connect + proxy tunnel + TLS handshake. Default 10 s. */
  connectTimeoutMs?: number;
  /** Attempts per request, the first included. Default 4. */
  tries?: number;
  /** First wait before a retry without Retry-After; doubles each time. Default 500 ms. */
  backoffMs?: number;
  /** Longest single wait, Retry-After included. Default 10 s. */
  maxWaitMs?: number;
  /** Requests in flight at once. Default 8. */
  concurrency?: number;
  /** `limit` of paged LISTs. Default 500. */
  pageSize?: number;
  /** For tests: how waiting is done. */
  sleep?: (ms: number) => Promise<void>;
}

export interface GetRequest {
  /** API path, e.g. `/api/v1/namespaces/shop/pods/web-0`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** What this request is for, in words: "listing nodes". Starts every error message. */
  what: string;
  accept?: string;
  /**
   * A WATCH (`watch=1` in the query): called with each event line as it arrives; returning
   * true ends the exchange there (the answer's body is then empty).
   */
  onLine?: (line: string) => boolean;
  /** Array members cut out of a 2xx body before it is parsed (unread-members.ts), e.g. managedFields. */
  dropArrays?: readonly string[];
  /**
   * Asks for protobuf (JSON accepted too): a 2xx protobuf answer is decoded by this instead of
   * parsed as JSON. An answer it cannot decode is asked for again in JSON.
   */
  decodeProtobuf?: (bytes: PageBytes) => unknown;
}

export interface SentRequest {
  method: string;
  path: string;
  status: number | 'failed';
}

/** A LIST that completed: how many items the server sent and how many the reader kept. */
export interface ListRead {
  path: string;
  query: Record<string, string>;
  items: number;
  kept: number;
}

interface ListPage {
  items?: unknown[];
  metadata?: { continue?: string };
  /** Items decoded from protobuf straight into their reduced records: `reduce` is not applied again. */
  reduced?: boolean;
}

interface PageRead {
  page: Promise<ListPage>;
  /** The continue token of this page, as soon as it is known (undefined: the last page). */
  next: Promise<string | undefined>;
  /** Whether this page was asked for with a continue token. */
  continued: boolean;
}

/**
 * Output chunk of gunzip: a page of 500 pods inflates to megabytes, which zlib's default
 * chunk hands over in hundreds of callbacks (a profile of a large read showed them).
 */
const gunzipChunkBytes = 1 << 20;

/**
 * Frees `bytes` now, not at V8's next full collection: a page's buffers (zlib's output, then the
 * page joined) are garbage once decoded, but they live outside V8's heap, and a read of every pod
 * from a fast server left 280 MB of them waiting for the collector (a peak of 940 MB where the
 * heap was 330). Only a buffer that is the whole of its ArrayBuffer is detached: never a slice of
 * Node's shared pool.
 */
function release(bytes: Buffer): void {
  const whole = bytes.buffer;
  if (bytes.byteOffset === 0 && bytes.byteLength === whole.byteLength && whole.byteLength > 0) detach(whole);
}

/** ES2024's ArrayBuffer.prototype.transfer (Node 22 has it; this project's lib is ES2023). */
type Detachable = ArrayBuffer & { readonly detached: boolean; transfer(length: number): ArrayBuffer };

function detach(whole: ArrayBufferLike): void {
  if (whole instanceof ArrayBuffer && !(whole as Detachable).detached) (whole as Detachable).transfer(0);
}

/** zlib's output buffers behind `chunks` (each chunk a slice of one), once the stream has ended. */
function releaseInflated(chunks: readonly Buffer[]): void {
  const buffers = new Set(chunks.map((chunk) => chunk.buffer));
  for (const whole of buffers) {
    // A gunzip output buffer is allocated whole, gunzipChunkBytes long, and used by nothing else.
    if (whole.byteLength === gunzipChunkBytes) detach(whole);
  }
}

/**
 * The answer's body, inflated. Each compressed chunk is freed as soon as zlib has taken it in:
 * left to V8's collector, the chunks of a read of every pod waited outside the heap for it (15
 * to 30 MB more at the peak of a read of 150,000 pods, sampled).
 */
function inflate(res: http.IncomingMessage): Readable {
  const gunzip = createGunzip({ chunkSize: gunzipChunkBytes });
  res.on('data', (chunk: Buffer) => {
    if (!gunzip.write(chunk, () => release(chunk))) res.pause();
  });
  gunzip.on('drain', () => res.resume());
  res.on('end', () => gunzip.end());
  return gunzip;
}

/** How much of a list's start is searched for its continue token. */
const headBytes = 16_384;
/** A protobuf list's continue token is in its first few hundred bytes. */
const protobufHeadBytes = 4096;

/** Sees the start of a 2xx list: its text, or its bytes when the answer is protobuf. */
type OnHead = (head: string | Buffer) => void;

/**
 * The continue token in the start of a list's JSON, which the apiserver writes before the items
 * (`{"kind":..,"apiVersion":..,"metadata":{..,"continue":".."},"items":[`): the token; for
 * the last page, undefined; null when the start does not say (then the whole page is waited for).
 */
export function continueInHead(head: string): string | undefined | null {
  const items = head.indexOf('"items"');
  if (items < 0) return null;
  const match = /"metadata":(\{[^{}]*\})/.exec(head.slice(0, items));
  if (!match?.[1]) return null;
  try {
    const metadata = JSON.parse(match[1]) as { continue?: unknown };
    return typeof metadata.continue === 'string' && metadata.continue !== '' ? metadata.continue : undefined;
  } catch {
    return null;
  }
}

interface Answer {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** A 2xx protobuf answer's bytes in the pieces they came in, never joined (body is then empty). */
  protobuf?: Buffer[];
  /** Whether those pieces are gunzip's output buffers, freed once decoded. */
  inflated?: boolean;
}

interface Credentials {
  headers: Record<string, string>;
  agent: http.Agent;
}

const userAgent = 'kubectl-why-pending (nodejs)';
const defaults = { connectTimeoutMs: 10_000, tries: 4, backoffMs: 500, maxWaitMs: 10_000, concurrency: 8, pageSize: 500 };

function ok(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

function bodyText(bytes: Buffer, dropArrays: readonly string[]): string {
  return (dropArrays.length > 0 ? withoutArrayMembers(bytes, dropArrays) : bytes).toString('utf8');
}

function sleepFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Retry-After: delay-seconds or an HTTP date. */
function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function retryable(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501 && status !== 505);
}

function materialKey(options: https.RequestOptions): string {
  const hash = createHash('sha256');
  for (const key of ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const) {
    const value: unknown = options[key];
    hash.update(`${key}=`);
    if (value === undefined || value === null) hash.update('-');
    else if (Buffer.isBuffer(value)) hash.update(value);
    else hash.update(typeof value === 'string' ? value : JSON.stringify(value));
    hash.update('\n');
  }
  return hash.digest('hex');
}

function tlsMaterial(options: https.RequestOptions): https.AgentOptions {
  const out: https.AgentOptions = {};
  if (options.ca !== undefined) out.ca = options.ca;
  if (options.cert !== undefined) out.cert = options.cert;
  if (options.key !== undefined) out.key = options.key;
  if (options.pfx !== undefined) out.pfx = options.pfx;
  if (options.passphrase !== undefined) out.passphrase = options.passphrase;
  if (options.rejectUnauthorized !== undefined) out.rejectUnauthorized = options.rejectUnauthorized;
  if (options.servername !== undefined) out.servername = options.servername;
  return out;
}

function statusOf(answer: Answer): { reason: string; message: string } {
  try {
    const status = JSON.parse(answer.body) as { kind?: string; reason?: string; message?: string };
    if (status && typeof status === 'object' && status.kind === 'Status') {
      return { reason: status.reason || answer.statusText, message: status.message ?? '' };
    }
  } catch {
    // Not a Status: a proxy's or load balancer's page.
  }
  const text = answer.body.trim().split('\n')[0] ?? '';
  return { reason: answer.statusText, message: text.startsWith('<') ? '' : text.slice(0, 200) };
}

export class Transport {
  /** Every request sent, retries included, in order. */
  readonly sent: SentRequest[] = [];
  /** Every LIST that completed, pages together, in the order they ended (a capture's manifest). */
  readonly lists: ListRead[] = [];
  private readonly base: URL;
  private readonly https: boolean;
  private readonly auth: Kubeconfig;
  private readonly proxy: ProxyChoice | undefined;
  private readonly limiter: Limiter;
  private readonly agents = new Map<string, http.Agent>();
  private readonly options: Required<Omit<TransportOptions, 'sleep'>> & { sleep: (ms: number) => Promise<void> };
  private authQueue: Promise<unknown> = Promise.resolve();
  private warmUp: Promise<void> | undefined;
  private closed = false;
  private readonly inFlight = new Set<http.ClientRequest>();

  constructor(
    private readonly config: LiveConfig,
    options: TransportOptions = {},
  ) {
    this.options = { ...defaults, ...options, sleep: options.sleep ?? sleepFor };
    const cluster = config.kubeConfig.getCurrentCluster();
    if (!cluster) throw new ClusterError(`${config.describe}: no cluster to connect to`);
    this.base = new URL(cluster.server);
    this.https = this.base.protocol === 'https:';
    this.proxy = chooseProxy(this.base, cluster.proxyUrl, config.proxyEnv);
    if (this.proxy && this.proxy.url.protocol.startsWith('socks') && cluster.proxyUrl === undefined) {
      throw new ClusterError(`${this.proxy.from} names a SOCKS proxy, which why-pending only supports as proxy-url in the kubeconfig`);
    }
    // client-node refuses http:// servers unless TLS verification is off; for plain HTTP that
    // setting means nothing, so its credential logic gets a copy where it is off.
    this.auth = config.kubeConfig;
    if (!this.https && !cluster.skipTLSVerify) {
      this.auth = new Kubeconfig({
        clusters: [{ ...cluster, skipTLSVerify: true }],
        users: config.kubeConfig.getUsers(),
        contexts: config.kubeConfig.getContexts(),
        currentContext: config.kubeConfig.getCurrentContext(),
      });
    }
    this.limiter = new Limiter(this.options.concurrency);
  }

  private faultContext(what: string): FaultContext {
    const user = this.config.kubeConfig.getCurrentUser()?.name;
    return {
      what,
      server: this.config.server,
      describe: this.config.describe,
      ...(user ? { user } : {}),
      requestTimeoutMs: this.config.requestTimeoutMs,
      connectTimeoutMs: this.options.connectTimeoutMs,
    };
  }

  /** The single entry point. Anything but GET is refused before it reaches the network. */
  async request(method: 'GET', request: GetRequest): Promise<unknown> {
    // Typed GET-only, and checked at run time too: a cast or plain JavaScript cannot get past it.
    if ((method as string) !== 'GET') {
      throw new Error(`why-pending is read-only: refusing to send ${method} ${request.path} (only GET requests are allowed)`);
    }
    if (this.warmUp === undefined) {
      // The first request runs alone, so that credentials (an exec plugin) are fetched once.
      const first = this.attempts(request);
      this.warmUp = first.then(
        () => undefined,
        () => undefined,
      );
      return first;
    }
    await this.warmUp;
    return this.attempts(request);
  }

  get(request: GetRequest): Promise<unknown> {
    return this.request('GET', request);
  }

  /** GET, waiting for the warm-up like `request`; `onHead` sees the start of a 2xx body. */
  private async attemptsAfterWarmUp(request: GetRequest, onHead: OnHead): Promise<unknown> {
    if (this.warmUp === undefined) return this.request('GET', request);
    await this.warmUp;
    return this.attempts(request, onHead);
  }

  /**
   * A paged LIST: `limit` + `continue` until the server says there is no more. The next page is
   * asked for as soon as its continue token is known (it comes first in a list, before the
   * items), so the server serves it while this page is still arriving and being parsed. `keep`
   * filters and `reduce` cuts each item, page by page, so that what is not needed is not held.
   * managedFields (and the `dropArrays` members) are cut from the page's bytes before it is parsed.
   * `prefetch: false` asks for the next page only once this one is absorbed (several lists at once).
   * `request.decodeProtobuf` reads pages in protobuf, already reduced (`keep` then sees the reduced record).
   */
  async list<T>(
    request: GetRequest,
    options: { keep?: (item: T) => boolean; reduce?: (item: T) => T; onPage?: (count: number, items: readonly T[]) => void; dropArrays?: readonly string[]; prefetch?: boolean } = {},
  ): Promise<T[]> {
    const out: T[] = [];
    let items = 0;
    const done = (): T[] => {
      const query = Object.fromEntries(Object.entries(request.query ?? {}).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
      this.lists.push({ path: request.path, query, items, kept: out.length });
      return out;
    };
    const absorb = (page: ListPage) => {
      const reduce = page.reduced ? undefined : options.reduce;
      items += page.items?.length ?? 0;
      for (const item of page.items ?? []) {
        const metadata = (item as { metadata?: Record<string, unknown> }).metadata;
        // Of managedFields, only who cordoned a node is kept (../cordon.ts).
        const cordon = metadata ? cordonEntries(metadata['managedFields']) : undefined;
        if (metadata && cordon) metadata['managedFields'] = cordon;
        else if (metadata) delete metadata['managedFields'];
        if (options.keep && !options.keep(item as T)) continue;
        out.push(reduce ? reduce(item as T) : (item as T));
      }
      options.onPage?.(out.length, out);
    };
    const dropArrays = ['managedFields', ...(options.dropArrays ?? [])];
    const fetchPage = (token: string | undefined): PageRead => {
      let announce: (next: string | undefined) => void = () => undefined;
      const next = new Promise<string | undefined>((resolve) => (announce = resolve));
      const query = { ...request.query, limit: this.options.pageSize, ...(token ? { continue: token } : {}) };
      const page = this.attemptsAfterWarmUp({ ...request, query, dropArrays }, (head) => {
        const found = typeof head === 'string' ? continueInHead(head) : continueInProtobufHead(head);
        if (found !== null) announce(found);
      }).then(
        (body) => {
          const read = body as ListPage;
          announce(read.metadata?.continue || undefined);
          return read;
        },
        (error: unknown) => {
          announce(undefined);
          throw error;
        },
      );
      return { page, next, continued: token !== undefined };
    };
    let current = fetchPage(undefined);
    for (;;) {
      const upcoming = options.prefetch === false ? Promise.resolve(undefined) : current.next.then((token) => (token ? fetchPage(token) : undefined));
      let page: ListPage;
      try {
        page = await current.page;
      } catch (error) {
        // A page asked for early is not waited for when this one failed.
        void upcoming.then((read) => read?.page.catch(() => undefined));
        // The continue token expired (410): like client-go's pager, read the rest in one LIST.
        if (!(error instanceof ApiStatusError && error.status === 410 && current.continued)) throw error;
        out.length = 0;
        items = 0;
        absorb((await this.get({ ...request, dropArrays })) as ListPage);
        return done();
      }
      absorb(page);
      const token = page.metadata?.continue;
      const following = options.prefetch === false ? (token ? fetchPage(token) : undefined) : await upcoming;
      if (!following) return done();
      current = following;
    }
  }

  /** Closes kept-alive connections. */
  close(): void {
    this.closed = true;
    // A WATCH still open (--watch ends the others once one saw a change) ends here too.
    for (const req of this.inFlight) req.destroy();
    this.inFlight.clear();
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private async attempts(request: GetRequest, onHead?: OnHead): Promise<unknown> {
    const ctx = this.faultContext(request.what);
    const { tries, backoffMs, maxWaitMs } = this.options;
    for (let attempt = 1; ; attempt++) {
      const backoff = Math.min(maxWaitMs, backoffMs * 2 ** (attempt - 1));
      let answer: Answer;
      try {
        answer = await this.limiter.run(() => this.exchange(request, onHead));
      } catch (error) {
        if (isDroppedConnection(error) && attempt < tries) {
          await this.options.sleep(backoff);
          continue;
        }
        throw describeFault(error, ctx, attempt);
      }
      if (answer.status >= 200 && answer.status < 300) {
        if (request.onLine) return undefined;
        if (answer.protobuf && request.decodeProtobuf) {
          try {
            // Decoded into records of their own (strings copied out): the page's bytes are done with.
            const decoded = request.decodeProtobuf(answer.protobuf);
            if (answer.inflated) releaseInflated(answer.protobuf);
            return decoded;
          } catch (error) {
            if (!(error instanceof ProtobufError)) throw error;
            // Not what this reader knows how to decode: the same request in JSON.
            const { decodeProtobuf: _, ...inJson } = request;
            return this.attempts(inJson, onHead);
          }
        }
        try {
          return JSON.parse(answer.body) as unknown;
        } catch {
          throw new ClusterError(`${request.what}: the answer of ${this.config.server} is not JSON (${answer.headers['content-type'] ?? 'no content type'}): is the server address right?`);
        }
      }
      const { reason, message } = statusOf(answer);
      if (answer.status === 401) throw unauthorized(ctx);
      if (retryable(answer.status)) {
        if (attempt < tries) {
          const retryAfter = parseRetryAfter(answer.headers['retry-after'], Date.now());
          await this.options.sleep(Math.min(maxWaitMs, retryAfter ?? backoff));
          continue;
        }
        throw serverUnavailable(ctx, answer.status, reason, message, attempt);
      }
      throw new ApiStatusError(request.what, answer.status, reason, message);
    }
  }

  /** Credentials for the next request, obtained one at a time (see the header). */
  private credentials(): Promise<Credentials> {
    const next = this.authQueue.then(async (): Promise<Credentials> => {
      const options: https.RequestOptions = {};
      try {
        await this.auth.applyToHTTPSOptions(options);
      } catch (error) {
        throw this.credentialError(error);
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(options.headers ?? {})) {
        if (typeof value === 'string') headers[name.toLowerCase()] = value;
      }
      if (typeof options.auth === 'string' && !headers['authorization']) {
        headers['authorization'] = `Basic ${Buffer.from(options.auth).toString('base64')}`;
      }
      return { headers, agent: this.agentFor(options) };
    });
    this.authQueue = next.catch(() => undefined);
    return next;
  }

  private credentialError(error: unknown): CredentialError {
    const user = this.config.kubeConfig.getCurrentUser();
    const exec = (user?.exec ?? (user?.authProvider as { config?: { exec?: unknown } } | undefined)?.config?.exec) as { command?: string } | undefined;
    const code = (error as NodeJS.ErrnoException).code;
    const first = ((error as Error).message ?? String(error)).split('\n').find((l) => l.trim() !== '')?.trim().slice(0, 300) ?? '';
    if (exec?.command) {
      if (code === 'ENOENT' && (error as { syscall?: string }).syscall?.startsWith('spawn')) {
        return new CredentialError(`getting credentials for user "${user?.name ?? ''}": the exec plugin command "${exec.command}" was not found: install it, or fix users[].user.exec.command in the kubeconfig`);
      }
      return new CredentialError(`getting credentials for user "${user?.name ?? ''}" from the exec plugin "${exec.command}" failed${first ? `: ${first}` : ''}: log in again, then retry`);
    }
    return new CredentialError(`loading the credentials of user "${user?.name ?? ''}": ${first}`);
  }

  private agentFor(options: https.RequestOptions): http.Agent {
    const key = materialKey(options);
    const cached = this.agents.get(key);
    if (cached) return cached;
    const common = { keepAlive: true, keepAliveMsecs: 30_000, maxSockets: this.options.concurrency };
    let agent: http.Agent;
    if (this.proxy?.url.protocol.startsWith('socks') && options.agent instanceof http.Agent) {
      agent = options.agent; // client-node's SOCKS agent for proxy-url socks5://
    } else if (this.https && this.proxy) {
      agent = new TunnelAgent(this.proxy.url, { ...common, ...tlsMaterial(options) });
    } else if (this.https) {
      agent = new https.Agent({ ...common, ...tlsMaterial(options) });
    } else {
      agent = new http.Agent(common);
    }
    this.agents.set(key, agent);
    return agent;
  }

  /** One HTTP exchange, with its timeouts. */
  private async exchange(request: GetRequest, onHead?: OnHead): Promise<Answer> {
    if (this.closed) throw new Error(`${request.what}: the connection to the API server was closed`);
    const { headers: authHeaders, agent } = await this.credentials();
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) query.set(name, String(value));
    const basePath = this.base.pathname.replace(/\/+$/, '');
    const path = `${basePath}${request.path}${query.size > 0 ? `?${query.toString()}` : ''}`;
    const headers: http.OutgoingHttpHeaders = {
      ...authHeaders,
      accept: request.accept ?? (request.decodeProtobuf ? `${protobufMediaType}, application/json` : 'application/json'),
      'accept-encoding': 'gzip',
      'user-agent': userAgent,
    };
    const impersonate = this.config.impersonate;
    if (impersonate) {
      headers['impersonate-user'] = impersonate.user;
      if (impersonate.groups.length > 0) headers['impersonate-group'] = impersonate.groups; // one header line per group
    }
    const viaHttpProxy = !this.https && this.proxy !== undefined;
    const target = viaHttpProxy && this.proxy ? this.proxy.url : this.base;
    if (viaHttpProxy && this.proxy) {
      const authorization = proxyAuthorization(this.proxy.url);
      if (authorization) headers['proxy-authorization'] = authorization;
      headers['host'] = this.base.host;
    }
    const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    const requestPath = viaHttpProxy ? `${this.base.origin}${path}` : path;
    const send = this.https ? https.request : http.request;
    this.sent.push({ method: 'GET', path, status: 'failed' });
    const record = this.sent[this.sent.length - 1] as SentRequest;

    return new Promise<Answer>((resolve, reject) => {
      let settled = false;
      const timers: NodeJS.Timeout[] = [];
      const finish = (error: Error | undefined, answer?: Answer) => {
        if (settled) return;
        settled = true;
        for (const timer of timers) clearTimeout(timer);
        if (error) reject(error);
        else if (answer) resolve(answer);
      };
      const req = send({ method: 'GET', host: hostname, port, path: requestPath, headers, agent });
      this.inFlight.add(req);
      req.on('close', () => this.inFlight.delete(req));
      // The timeout is what the user sees, not the reset that destroying the request causes.
      const abort = (error: Error) => {
        finish(error);
        req.destroy();
      };
      const connectTimer = setTimeout(() => abort(new ConnectTimeout('connect timeout')), this.options.connectTimeoutMs);
      timers.push(connectTimer);
      if (this.config.requestTimeoutMs > 0) {
        timers.push(setTimeout(() => abort(new RequestTimeout('request timeout')), this.config.requestTimeoutMs));
      }
      const connected = () => clearTimeout(connectTimer);
      req.on('socket', (socket) => {
        if (req.reusedSocket) return connected();
        if (this.https && !viaHttpProxy) {
          // A socket an agent hands over may have finished its handshake already (Node's
          // TLSSocket records that in _secureEstablished; getProtocol() answers even before).
          if ((socket as TLSSocket & { _secureEstablished?: boolean })._secureEstablished === true) connected();
          else socket.once('secureConnect', connected);
        } else if (!socket.connecting) {
          connected();
        } else {
          socket.once('connect', connected);
        }
      });
      req.on('error', (error) => finish(error));
      req.on('response', (res) => {
        connected();
        record.status = res.statusCode ?? 0;
        const stream = /\bgzip\b/i.test(String(res.headers['content-encoding'] ?? '')) ? inflate(res) : res;
        const chunks: Buffer[] = [];
        let pending = '';
        const onLine = request.onLine;
        const protobuf = String(res.headers['content-type'] ?? '').startsWith(protobufMediaType);
        let head = onHead && !protobuf && record.status >= 200 && record.status < 300 ? '' : undefined;
        let protobufHead = onHead && protobuf && ok(record.status) ? 0 : undefined;
        stream.on('data', (chunk: Buffer) => {
          // A WATCH: each event line as it arrives, and the exchange ends when the caller says so.
          if (onLine && (res.statusCode ?? 0) < 300) {
            pending += chunk.toString('utf8');
            const lines = pending.split('\n');
            pending = lines.pop() ?? '';
            if (lines.some((line) => line.trim() !== '' && onLine(line))) {
              finish(undefined, { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, body: '' });
              req.destroy();
            }
            return;
          }
          chunks.push(chunk);
          if (protobufHead !== undefined && onHead) {
            protobufHead += chunk.length;
            if (protobufHead >= protobufHeadBytes) {
              onHead(Buffer.concat(chunks));
              protobufHead = undefined;
            }
          }
          if (head === undefined || !onHead) return;
          head += chunk.toString('utf8', 0, Math.min(chunk.length, headBytes));
          if (head.includes('"items"') || head.length >= headBytes) {
            onHead(head);
            head = undefined;
          }
        });
        stream.on('end', () => {
          const base = { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers };
          if (protobuf && ok(res.statusCode)) {
            finish(undefined, { ...base, body: '', protobuf: chunks, inflated: stream !== res });
            return;
          }
          const bytes = Buffer.concat(chunks);
          if (stream !== res) releaseInflated(chunks);
          chunks.length = 0;
          // An error in protobuf: its Status as the JSON one would read, for statusOf.
          if (protobuf) finish(undefined, { ...base, body: JSON.stringify(decodeStatus(bytes) ?? {}) });
          else {
            finish(undefined, { ...base, body: bodyText(bytes, ok(res.statusCode) ? (request.dropArrays ?? []) : []) });
            release(bytes);
          }
        });
        stream.on('error', (error) => finish(error));
        res.on('aborted', () => finish(Object.assign(new Error('the response was cut short'), { code: 'ECONNRESET' })));
        res.on('error', (error) => finish(error));
      });
      req.end();
    });
  }
}

/** How a live read is made: the transport's options, and how the reader uses it. */
export interface ReadLiveOptions extends TransportOptions {
  /** Up to this many candidate nodes (or named objects), one read each; above, one paged LIST. Default 100. */
  perObjectReadsUpTo?: number;
  /** Receives the Transport once made, e.g. to count requests. */
  onTransport?: (transport: Transport) => void;
}
