// GETs to a cluster as a kubeconfig names it (the project's own kubeconfig handling, so that
// tokens, client certificates and exec plugins work as they do for the tool), answered with
// the body's bytes as served: no gzip asked, nothing parsed.
import http from 'node:http';
import https from 'node:https';
import { loadConfig } from '../../../src/sources/live/config.js';
import { liveOptionsFrom } from '../../../src/sources/live/flags.js';

export interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface Endpoint {
  server: string;
  get(path: string, query?: Record<string, string>, accept?: string): Promise<Answer>;
  close(): void;
}

export async function endpointFor(kubeconfig: string): Promise<Endpoint> {
  const config = loadConfig(liveOptionsFrom({ kubeconfig }), process.env);
  const base = new URL(config.kubeConfig.getCurrentCluster()?.server ?? '');
  const options: https.RequestOptions = {};
  await config.kubeConfig.applyToHTTPSOptions(options);
  const secure = base.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true, ...(options.ca ? { ca: options.ca } : {}), ...(options.cert ? { cert: options.cert } : {}), ...(options.key ? { key: options.key } : {}), ...(options.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}) }) : new http.Agent({ keepAlive: true });
  const headers = { ...(options.headers as Record<string, string> | undefined), 'user-agent': 'why-pending-bench-replay-recorder' };
  const prefix = base.pathname.replace(/\/+$/, '');
  return {
    server: config.server,
    get: (path, query = {}, accept = 'application/json') =>
      new Promise((resolve, reject) => {
        const qs = new URLSearchParams(query).toString();
        const send = secure ? https.request : http.request;
        const req = send({ host: base.hostname, port: base.port, path: `${prefix}${path}${qs ? `?${qs}` : ''}`, agent, headers: { ...headers, accept } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      }),
    close: () => agent.destroy(),
  };
}
