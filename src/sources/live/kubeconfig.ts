// The effective context, cluster and user (config.ts merges and chooses them) and the
// credentials they give a request. client-node's KubeConfig did this; importing it loads the
// whole generated API client (every model and API class, before the first request: its cost
// is measured in BENCHMARKS.md), of which a read uses none. Here:
// - certificates, CA, TLS server name, skip-verify, bearer token and basic auth, as
//   KubeConfig.applyToHTTPSOptions sets them (client-node 2.0.x, dist/config.js:
//   applyHTTPSOptions, applyAuthorizationHeader);
// - an exec plugin through client-node's own ExecAuth (dist/exec_auth.js, small), one instance
//   per Kubeconfig, so that its token cache lives as long as the transport, as before;
// - anything rarer (a legacy auth-provider: azure, gcp, oidc, token-file; a SOCKS proxy-url,
//   whose agent client-node builds) is handed, unchanged, to client-node's KubeConfig, loaded
//   only then.
import { readFileSync } from 'node:fs';
import type https from 'node:https';
import type { Cluster, Context, KubeConfig, User } from '@kubernetes/client-node';
import type { ExecAuth } from '@kubernetes/client-node/dist/exec_auth.js';

export interface KubeconfigOptions {
  clusters: Cluster[];
  users: User[];
  contexts: Context[];
  currentContext: string;
}

function fileOrData(file: string | undefined, data: string | undefined): Buffer | undefined {
  if (file) return readFileSync(file);
  if (data) return Buffer.from(data, 'base64');
  return undefined;
}

export class Kubeconfig {
  private exec: ExecAuth | undefined;
  private full: KubeConfig | undefined;

  constructor(private readonly options: KubeconfigOptions) {}

  getCurrentContext(): string {
    return this.options.currentContext;
  }

  getContexts(): Context[] {
    return this.options.contexts;
  }

  getUsers(): User[] {
    return this.options.users;
  }

  private currentContextObject(): Context | undefined {
    return this.options.contexts.find((c) => c.name === this.options.currentContext);
  }

  getCurrentCluster(): Cluster | null {
    const context = this.currentContextObject();
    return (context && this.options.clusters.find((c) => c.name === context.cluster)) ?? null;
  }

  getCurrentUser(): User | null {
    const context = this.currentContextObject();
    return (context && this.options.users.find((u) => u.name === context.user)) ?? null;
  }

  /** What client-node's KubeConfig.applyToHTTPSOptions sets on `opts` (but `agent`, unless SOCKS). */
  async applyToHTTPSOptions(opts: https.RequestOptions): Promise<void> {
    const cluster = this.getCurrentCluster();
    const user = this.getCurrentUser();
    if (user?.authProvider || cluster?.proxyUrl?.startsWith('socks')) {
      await (await this.clientNode()).applyToHTTPSOptions(opts);
      return;
    }
    if (!user) return;
    if (cluster?.skipTLSVerify) opts.rejectUnauthorized = false;
    if (cluster?.tlsServerName) opts.servername = cluster.tlsServerName;
    const ca = cluster ? fileOrData(cluster.caFile, cluster.caData) : undefined;
    if (ca) opts.ca = ca;
    const cert = fileOrData(user.certFile, user.certData);
    if (cert) opts.cert = cert;
    const key = fileOrData(user.keyFile, user.keyData);
    if (key) opts.key = key;
    const headers = (opts.headers ??= {}) as Record<string, string>;
    if (user.impersonateUser != null) headers['Impersonate-User'] = user.impersonateUser;
    if (user.exec) {
      this.exec ??= new (await import('@kubernetes/client-node/dist/exec_auth.js')).ExecAuth();
      await this.exec.applyAuthentication(user, opts);
    }
    if (user.token) headers['Authorization'] = `Bearer ${user.token}`;
    if (user.username) opts.auth = `${user.username}:${user.password ?? ''}`;
  }

  private async clientNode(): Promise<KubeConfig> {
    if (!this.full) {
      const { KubeConfig } = await import('@kubernetes/client-node');
      this.full = new KubeConfig();
      this.full.loadFromOptions({ ...this.options });
    }
    return this.full;
  }
}
