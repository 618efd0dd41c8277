// Turns what can go wrong between us and the API server into one line: what failed ("listing
// nodes"), why, and what to do. Messages never carry credentials: a server URL loses its
// user:password, and neither headers nor kubeconfig contents are ever quoted.
import { ClusterError } from '../../errors.js';
import { ProxyError } from './proxy.js';

/** Where a request went and on whose behalf, for wording faults. */
export interface FaultContext {
  /** What was being done: "listing nodes", "reading pod shop/web-0". */
  what: string;
  server: string;
  /** `context "x" (server ..., user "y")`. */
  describe: string;
  user?: string;
  requestTimeoutMs: number;
  connectTimeoutMs: number;
}

/** A non-2xx answer with the Status the API server sent; callers decide 403/404 themselves. */
export class ApiStatusError extends Error {
  override name = 'ApiStatusError';
  constructor(
    readonly what: string,
    readonly status: number,
    /** The Status reason (`Forbidden`, `NotFound`, `Expired`...) or the HTTP status text. */
    readonly reason: string,
    /** The Status message, as the server wrote it. */
    readonly serverMessage: string,
  ) {
    super(`${what}: ${status} ${reason}${serverMessage ? `: ${serverMessage}` : ''}`);
  }
}

/** The request ran longer than --request-timeout. */
export class RequestTimeout extends Error {
  override name = 'RequestTimeout';
}

/** No connection (TCP, TLS handshake, proxy tunnel) within the connect timeout. */
export class ConnectTimeout extends Error {
  override name = 'ConnectTimeout';
}

/** Credentials could not be obtained (exec plugin, auth provider, unreadable key file). */
export class CredentialError extends Error {
  override name = 'CredentialError';
}

const unknownAuthority = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/**
 * The API server went away or is not serving yet: it refused the connection, dropped it or did
 * not take it within the connect timeout, or kept answering 429 or 5xx. A read fails with it;
 * a watch waits for the server (watch.ts).
 */
export class ServerAway extends ClusterError {
  override name = 'ServerAway';
}

/** A connection the server (or something in the way) dropped: safe to retry a GET. */
export function isDroppedConnection(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'UND_ERR_SOCKET';
}

function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)}s` : `${ms}ms`;
}

function hostOf(server: string): string {
  try {
    return new URL(server).hostname;
  } catch {
    return server;
  }
}

function firstLine(text: string, max = 300): string {
  const line = text.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max)}...` : line;
}

/** A failure below HTTP (or of the credentials) as a ClusterError. */
export function describeFault(error: unknown, ctx: FaultContext, tries = 1): ClusterError {
  const { what, server, describe } = ctx;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  const triesText = tries > 1 ? ` (tried ${tries} times)` : '';
  if (error instanceof ClusterError) return error;
  if (error instanceof RequestTimeout) {
    return new ClusterError(`${what}: no complete answer from ${server} within ${formatDuration(ctx.requestTimeoutMs)} (--request-timeout): retry with a longer --request-timeout, or check the API server's health`);
  }
  if (error instanceof ConnectTimeout) {
    return new ServerAway(`${what}: could not connect to ${server} within ${formatDuration(ctx.connectTimeoutMs)}: check the server address of ${describe}, and your network, VPN or firewall`);
  }
  if (error instanceof CredentialError) return new ClusterError(`${what}: ${message}`);
  if (error instanceof ProxyError) {
    return new ClusterError(`${what}: ${message}: check proxy-url in the kubeconfig, or HTTPS_PROXY/NO_PROXY in the environment`);
  }
  if (code === 'ECONNREFUSED') {
    return new ServerAway(`${what}: connection refused by ${server}: check that the API server is running and that ${describe} points at it (or pass --server)`);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NONAME') {
    return new ClusterError(`${what}: cannot resolve host "${hostOf(server)}" (DNS lookup failed): check the server address of ${describe}, and your network or VPN`);
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ETIMEDOUT') {
    return new ClusterError(`${what}: ${server} is unreachable (${code}): check your network, VPN or firewall`);
  }
  if (unknownAuthority.has(code)) {
    return new ClusterError(
      `${what}: the certificate of ${server} is signed by an unknown authority: set certificate-authority-data in the kubeconfig or pass --certificate-authority FILE (or, insecurely, --insecure-skip-tls-verify)`,
    );
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const reason = (error as { reason?: string }).reason ?? message;
    return new ClusterError(`${what}: the certificate of ${server} is not valid for "${hostOf(server)}" (${firstLine(reason, 200)}): pass --tls-server-name with a name the certificate covers`);
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return new ClusterError(`${what}: the certificate of ${server} ${code === 'CERT_HAS_EXPIRED' ? 'has expired' : 'is not valid yet'}: check the server's certificate and this machine's clock`);
  }
  if (/CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_UNKNOWN/.test(code)) {
    return new ClusterError(`${what}: ${server} rejected the client certificate during the TLS handshake (${code}): check client-certificate and client-key of ${describe}`);
  }
  if (code === 'EPROTO' || code.startsWith('ERR_SSL_')) {
    const hint = /wrong version number|packet length too long/i.test(message) ? ': the server does not speak TLS here; is its address http:// rather than https://?' : '';
    return new ClusterError(`${what}: TLS handshake with ${server} failed (${code})${hint || ': check the server address and its certificate'}`);
  }
  if (code.startsWith('HPE_')) {
    return new ClusterError(`${what}: ${server} did not answer in HTTP (${code}): is its address https:// rather than http://?`);
  }
  if (isDroppedConnection(error) || /socket hang up/i.test(message)) {
    return new ServerAway(`${what}: ${server} closed the connection before answering${triesText}: check for a proxy or load balancer in the way, then retry`);
  }
  return new ClusterError(`${what}: request to ${server} failed: ${firstLine(message)}${code && !message.includes(code) ? ` (${code})` : ''}`);
}

/** 401: the credentials are missing, expired or revoked. */
export function unauthorized(ctx: FaultContext): ClusterError {
  const who = ctx.user ? `of user "${ctx.user}" ` : '';
  return new ClusterError(
    `${ctx.what}: the API server rejected the credentials ${who}(401 Unauthorized): they are missing, expired or revoked; log in again (for an exec credential plugin, re-run its login, e.g. run "kubectl get --raw /version" to refresh it) or pass --token`,
  );
}

/** 429 or 5xx on every try. */
export function serverUnavailable(ctx: FaultContext, status: number, reason: string, serverMessage: string, tries: number): ServerAway {
  const detail = serverMessage ? `: ${firstLine(serverMessage, 200)}` : '';
  if (status === 429) {
    return new ServerAway(`${ctx.what}: the API server kept throttling requests (429 Too Many Requests, ${tries} tries)${detail}; try again in a minute`);
  }
  return new ServerAway(`${ctx.what}: the API server answered ${status} ${reason} ${tries} times${detail}; check the control plane's health, then retry`);
}

/** Any other status nobody handled. */
export function unexpectedStatus(error: ApiStatusError): ClusterError {
  const detail = error.serverMessage ? `: ${firstLine(error.serverMessage, 300)}` : '';
  return new ClusterError(`${error.what}: the API server answered ${error.status} ${error.reason}${detail}`);
}

/** 403 on what cannot be done without: the target itself. */
export function forbiddenTarget(error: ApiStatusError, permission: { verb: string; resource: string; scope: string }): ClusterError {
  const detail = error.serverMessage ? ` (${firstLine(error.serverMessage, 300)})` : '';
  return new ClusterError(
    `${error.what}: forbidden${detail}: why-pending needs "${permission.verb} ${permission.resource}" ${permission.scope === 'cluster' ? 'at cluster scope' : `in ${permission.scope}`}; ask for it (the README lists a minimal Role)`,
  );
}
