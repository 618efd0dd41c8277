// Starts the replay server (server.ts) as a process of its own, with a self-signed certificate
// for 127.0.0.1 (made once by openssl into the replay cache), and hands back how to reach it:
// its URL, a kubeconfig for the tool, and the requests it served.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const tlsDir = path.join(os.homedir(), '.cache', 'why-pending', 'replay', 'tls');
const token = 'replay-bench-token';

export interface ServedRequest {
  kind: string;
  status: number;
  items: number;
  bytes: number;
  path: string;
}

export interface ReplayServer {
  url: string;
  token: string;
  caFile: string;
  kubeconfig: string;
  pods: number;
  nodes: number;
  copies: number;
  renamed: Record<string, string[]>;
  /** The requests served since the last call. */
  requests(): Promise<ServedRequest[]>;
  /** GET with the bench's token: the body as served, gzip not asked. */
  get(pathAndQuery: string, accept?: string): Promise<Buffer>;
  /** The server process's peak RSS so far (VmHWM). */
  peakRssMB(): number;
  stop(): Promise<void>;
}

function certificate(): { cert: string; key: string } {
  const cert = path.join(tlsDir, 'cert.pem');
  const key = path.join(tlsDir, 'key.pem');
  if (!existsSync(cert) || !existsSync(key)) {
    mkdirSync(tlsDir, { recursive: true });
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '3650', '-subj', '/CN=why-pending-replay', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  }
  return { cert, key };
}

export async function startReplayServer(store: string, factor: number, say: (line: string) => void): Promise<ReplayServer> {
  const { cert, key } = certificate();
  const server = path.join(import.meta.dirname, 'server.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', server, '--store', store, '--scale', String(factor), '--cert', cert, '--key', key, '--token', token], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr.on('data', (c: Buffer) => say(c.toString('utf8').trimEnd()));
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  const first = await Promise.race([
    new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve)),
    exited.then((code) => {
      throw new Error(`the replay server exited ${code} before listening`);
    }),
  ]);
  const info = JSON.parse(first) as { url: string; pods: number; nodes: number; copies: number; renamed: Record<string, string[]> };
  const dir = path.dirname(store);
  const kubeconfig = path.join(dir, `kubeconfig-${child.pid ?? 0}.yaml`);
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: replay\n  cluster:\n    server: ${info.url}\n    certificate-authority: ${cert}`,
      'users:',
      `- name: replay\n  user:\n    token: ${token}`,
      'contexts:',
      '- name: replay\n  context:\n    cluster: replay\n    user: replay',
      'current-context: replay',
      '',
    ].join('\n'),
  );
  const ca = readFileSync(cert);
  const agent = new https.Agent({ keepAlive: true, ca });
  const get = (pathAndQuery: string, accept = 'application/json') =>
    new Promise<Buffer>((resolve, reject) => {
      const req = https.request(`${info.url}${pathAndQuery}`, { agent, headers: { authorization: `Bearer ${token}`, accept } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`GET ${pathAndQuery}: HTTP ${res.statusCode ?? 0}: ${Buffer.concat(chunks).toString('utf8', 0, 300)}`))));
      });
      req.on('error', reject);
      req.end();
    });
  return {
    ...info,
    token,
    caFile: cert,
    kubeconfig,
    requests: async () => JSON.parse((await get('/_replay/requests')).toString('utf8')) as ServedRequest[],
    get,
    peakRssMB: () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid ?? 0}/status`, 'utf8'))?.[1] ?? 0) / 1024,
    stop: async () => {
      agent.destroy();
      child.kill('SIGTERM');
      await exited;
      rmSync(kubeconfig, { force: true });
    },
  };
}
