// Minimal JSON client for the test apiserver (bearer token or client certificate, CA from --cert-dir).
import { request } from 'node:https';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    method: string,
    path: string,
  ) {
    super(`${method} ${path}: HTTP ${status}: ${body.slice(0, 500)}`);
  }
}

export interface ApiClient {
  server: string;
  get<T = unknown>(path: string): Promise<T>;
  post<T = unknown>(path: string, body: unknown): Promise<T>;
  put<T = unknown>(path: string, body: unknown): Promise<T>;
  /** Merge patch by default; pass 'application/json-patch+json' or 'application/strategic-merge-patch+json' to change. */
  patch<T = unknown>(path: string, body: unknown, contentType?: string): Promise<T>;
  delete<T = unknown>(path: string, body?: unknown): Promise<T>;
  /** Raw status + text, for health endpoints. */
  raw(method: string, path: string): Promise<{ status: number; text: string }>;
}

/** A bearer token, or a client certificate and its key (PEM). */
export type ClientAuth = string | { cert: string | Buffer; key: string | Buffer };

export function apiClient(server: string, auth: ClientAuth, ca: string | Buffer | undefined): ApiClient {
  const token = typeof auth === 'string' ? auth : undefined;
  const tls = typeof auth === 'string' ? {} : { cert: auth.cert, key: auth.key };
  const base = new URL(server);
  const send = (method: string, path: string, body?: unknown, contentType = 'application/json') =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request(
        {
          host: base.hostname,
          port: base.port,
          method,
          path,
          ca,
          ...tls,
          rejectUnauthorized: ca !== undefined,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            accept: 'application/json',
            'user-agent': 'why-pending-e2e-harness',
            ...(data ? { 'content-type': contentType, 'content-length': data.length } : {}),
          },
          timeout: 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timeout`)));
      req.on('error', reject);
      req.end(data);
    });
  const json = async <T>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> => {
    const { status, text } = await send(method, path, body, contentType);
    if (status < 200 || status >= 300) throw new ApiError(status, text, method, path);
    return (text ? JSON.parse(text) : {}) as T;
  };
  return {
    server,
    get: (p) => json('GET', p),
    post: (p, b) => json('POST', p, b),
    put: (p, b) => json('PUT', p, b),
    patch: (p, b, ct = 'application/merge-patch+json') => json('PATCH', p, b, ct),
    delete: (p, b) => json('DELETE', p, b),
    raw: (m, p) => send(m, p),
  };
}
