// Which cluster, user and namespace, decided the way kubectl decides them:
// - `--kubeconfig FILE` alone, else every file of KUBECONFIG merged, else ~/.kube/config, else the
//   in-cluster service account; with none of those (and no --server) a clear error, never
//   client-node's silent fallback to http://localhost:8080.
// - Merging (client-go's loader): missing files are skipped; the first file to define a cluster,
//   user or context name wins it whole; the first file to set current-context wins it. client-node's
//   loadFromDefault differs on all three (a missing file throws, a duplicate name throws, the last
//   current-context wins), so the files are read and merged here, and client-node gets only the
//   effective cluster, user and context.
// - Relative paths in a file resolve against that file's directory (certificate-authority,
//   client-certificate, client-key, token-file, and an exec command that contains a slash).
// - Flags override as clientcmd's ConfigOverrides do.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Cluster, Context, User } from '@kubernetes/client-node';
import { parse as parseYaml } from 'yaml';
import { ClusterError, UsageError } from '../../errors.js';
import type { LiveOptions } from './flags.js';
import { Kubeconfig } from './kubeconfig.js';
import { isObject } from '../object.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface LiveConfig {
  /** Holds exactly one context, cluster and user: the effective ones, overrides applied. */
  kubeConfig: Kubeconfig;
  namespace: string;
  /** One line naming the context, server and user, for messages and the report. Never a secret. */
  describe: string;
  /** The API server's base URL, without credentials. */
  server: string;
  /** 0: no limit per request. */
  requestTimeoutMs: number;
  impersonate?: { user: string; groups: string[] };
  /** HTTP(S)_PROXY and NO_PROXY as the environment gave them (kubectl honours them). */
  proxyEnv: Env;
}

type Raw = Record<string, unknown>;

interface Merged {
  clusters: Map<string, Raw>;
  users: Map<string, Raw>;
  contexts: Map<string, Raw>;
  currentContext?: string;
  files: string[];
}

const serviceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

function str(record: Raw | undefined, key: string): string | undefined {
  const value = record?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return (error as Error).message;
}

function resolveAgainst(dir: string, record: Raw | undefined, keys: string[]): Raw | undefined {
  if (!record) return record;
  const out: Raw = { ...record };
  for (const key of keys) {
    const value = str(out, key);
    if (value && !path.isAbsolute(value)) out[key] = path.join(dir, value);
  }
  return out;
}

function resolveUserPaths(dir: string, user: Raw | undefined): Raw | undefined {
  const out = resolveAgainst(dir, user, ['client-certificate', 'client-key', 'token-file']);
  const exec = out?.['exec'];
  if (out && isObject(exec)) {
    const command = str(exec, 'command');
    // A bare command name is looked up on PATH; only a path is relative to the file.
    if (command && command.includes('/') && !path.isAbsolute(command)) out['exec'] = { ...exec, command: path.join(dir, command) };
  }
  return out;
}

/** Reads one kubeconfig file; undefined when it does not exist and `optional`. */
function readKubeconfig(file: string, optional: boolean): Raw | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ClusterError(`reading kubeconfig ${file}: ${fsReason(error)}`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    throw new ClusterError(`reading kubeconfig ${file}: not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}`);
  }
  if (doc === null || doc === undefined) return {};
  if (!isObject(doc)) throw new ClusterError(`reading kubeconfig ${file}: expected a kubeconfig (kind: Config), found ${Array.isArray(doc) ? 'a list' : typeof doc}`);
  return doc;
}

function mergeInto(merged: Merged, doc: Raw, file: string): void {
  const dir = path.dirname(path.resolve(file));
  const sections = [
    ['clusters', 'cluster', merged.clusters, (r: Raw | undefined) => resolveAgainst(dir, r, ['certificate-authority'])],
    ['users', 'user', merged.users, (r: Raw | undefined) => resolveUserPaths(dir, r)],
    ['contexts', 'context', merged.contexts, (r: Raw | undefined) => r],
  ] as const;
  for (const [section, field, into, fix] of sections) {
    const list = doc[section];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) throw new ClusterError(`reading kubeconfig ${file}: ${section} is not a list`);
    for (const entry of list) {
      if (!isObject(entry)) continue;
      const name = str(entry, 'name');
      if (!name || into.has(name)) continue; // the first file to name it wins
      const body = entry[field];
      into.set(name, fix(isObject(body) ? body : {}) ?? {});
    }
  }
  const current = str(doc, 'current-context');
  if (current && merged.currentContext === undefined) merged.currentContext = current;
}

/** The files kubectl would read, in priority order, and where that list came from. */
function kubeconfigFiles(options: Pick<LiveOptions, 'kubeconfig'>, env: Env): { files: string[]; from: 'flag' | 'KUBECONFIG' | 'home' | 'none' } {
  if (options.kubeconfig) return { files: [options.kubeconfig], from: 'flag' };
  const list = env['KUBECONFIG'];
  if (list) {
    return { files: [...new Set(list.split(path.delimiter).filter((f) => f !== ''))], from: 'KUBECONFIG' };
  }
  const home = env['HOME'] || env['USERPROFILE'];
  if (home) return { files: [path.join(home, '.kube', 'config')], from: 'home' };
  return { files: [], from: 'none' };
}

/** Merges kubeconfig files as kubectl does. */
function mergeKubeconfigs(files: string[], requireFirst: boolean): Merged {
  const merged: Merged = { clusters: new Map(), users: new Map(), contexts: new Map(), files: [] };
  for (const file of files) {
    const doc = readKubeconfig(file, !requireFirst);
    if (!doc) continue;
    merged.files.push(file);
    mergeInto(merged, doc, file);
  }
  return merged;
}

function inCluster(env: Env): Merged | undefined {
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'];
  if (!host || !port) return undefined;
  const tokenFile = path.join(serviceAccountDir, 'token');
  let namespace: string | undefined;
  try {
    readFileSync(tokenFile);
    namespace = readFileSync(path.join(serviceAccountDir, 'namespace'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    clusters: new Map([['in-cluster', { server, 'certificate-authority': path.join(serviceAccountDir, 'ca.crt') }]]),
    users: new Map([['in-cluster', { 'token-file': tokenFile }]]),
    contexts: new Map([['in-cluster', { cluster: 'in-cluster', user: 'in-cluster', ...(namespace ? { namespace } : {}) }]]),
    currentContext: 'in-cluster',
    files: ['the in-cluster service account'],
  };
}

/** The server URL without user:password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}

function normalizeServer(server: string, where: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(server) ? server : `https://${server}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ClusterError(`${where}: server "${redactUrl(server)}" is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ClusterError(`${where}: server "${redactUrl(server)}" must be an http or https URL`);
  return withScheme.replace(/\/+$/, '');
}

function readTokenFile(file: string, userName: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new ClusterError(`reading the token-file of user "${userName}" (${file}): ${fsReason(error)}`);
  }
}

const noKubeconfig = 'no kubeconfig found: set KUBECONFIG or pass --kubeconfig; why-pending never falls back to localhost:8080';

/** The kubeconfig files merged, else the in-cluster account; an error when there is nothing to go on. */
function mergedKubeconfig(options: LiveOptions, env: Env): Merged {
  const { files, from } = kubeconfigFiles(options, env);
  let merged = mergeKubeconfigs(files, from === 'flag');
  if (merged.files.length === 0 && from !== 'flag') merged = inCluster(env) ?? merged;
  if (merged.files.length === 0 && !options.server) {
    if (from === 'KUBECONFIG') throw new ClusterError(`${noKubeconfig} (none of the KUBECONFIG files exists: ${files.join(', ')})`);
    throw new ClusterError(noKubeconfig);
  }
  return merged;
}

/** A named kubeconfig entry; `raw` undefined when the name is not in the files (or there is no name). */
interface Chosen {
  name?: string;
  raw?: Raw;
}

const quotedNames = (names: Iterable<string>): string => [...names].map((n) => `"${n}"`).join(', ');

/** --context, else current-context; none at all only when --server or --cluster say where to go. */
function chooseContext(merged: Merged, options: LiveOptions): Chosen {
  const fileList = merged.files.join(', ');
  const name = options.context ?? merged.currentContext;
  const known = [...merged.contexts.keys()];
  if (name) {
    const raw = merged.contexts.get(name);
    if (!raw && (options.context || !options.server)) {
      throw new ClusterError(`context "${name}" not found in kubeconfig ${fileList || '(none)'}${known.length > 0 ? `; it has ${quotedNames(known)}` : ''}: pass --context with one of them`);
    }
    return { name, raw };
  }
  if (!options.server && !options.cluster) {
    throw new ClusterError(`kubeconfig ${fileList} sets no current-context: pass --context NAME${known.length > 0 ? ` (${quotedNames(known)})` : ''} or run kubectl config use-context NAME`);
  }
  return {};
}

/** --cluster, else the context's, with --server and the TLS flags applied; its server URL checked. */
function chooseCluster(merged: Merged, options: LiveOptions, context: Chosen): Chosen & { raw: Raw; server: string } {
  const name = options.cluster ?? str(context.raw, 'cluster');
  let raw: Raw = {};
  if (name) {
    const found = merged.clusters.get(name);
    if (!found && (options.cluster || !options.server)) {
      throw new ClusterError(`cluster "${name}"${context.name && !options.cluster ? ` (of context "${context.name}")` : ''} not found in kubeconfig ${merged.files.join(', ')}`);
    }
    raw = { ...(found ?? {}) };
  }
  if (options.server) raw['server'] = options.server;
  const where = name ? `cluster "${name}"` : '--server';
  const rawServer = str(raw, 'server');
  if (!rawServer) throw new ClusterError(`${where} has no server address: set it in the kubeconfig or pass --server`);
  const server = normalizeServer(rawServer, where);
  overrideTls(raw, options);
  return { name, raw, server };
}

// clientcmd: an explicit CA or --insecure-skip-tls-verify replaces the kubeconfig's CA settings,
// and --server forgets the kubeconfig's tls-server-name unless --tls-server-name is given too.
function overrideTls(cluster: Raw, options: LiveOptions): void {
  if (options.insecureSkipTlsVerify || options.certificateAuthority) {
    cluster['insecure-skip-tls-verify'] = options.insecureSkipTlsVerify;
    delete cluster['certificate-authority-data'];
    delete cluster['certificate-authority'];
    if (options.certificateAuthority) cluster['certificate-authority'] = path.resolve(options.certificateAuthority);
  }
  if (options.tlsServerName || options.server) {
    delete cluster['tls-server-name'];
    if (options.tlsServerName) cluster['tls-server-name'] = options.tlsServerName;
  }
}

/** --user, else the context's, with --token and the client certificate flags applied. */
function chooseUser(merged: Merged, options: LiveOptions, context: Chosen): Chosen & { raw: Raw } {
  const fileList = merged.files.join(', ');
  const name = options.user ?? str(context.raw, 'user');
  let raw: Raw = {};
  if (name) {
    const found = merged.users.get(name);
    if (!found && options.user) throw new ClusterError(`user "${name}" not found in kubeconfig ${fileList || '(none)'}`);
    if (!found && context.name && !options.server) throw new ClusterError(`user "${name}" of context "${context.name}" not found in kubeconfig ${fileList}`);
    raw = { ...(found ?? {}) };
  }
  overrideCredentials(raw, options);
  return { name, raw };
}

function overrideCredentials(user: Raw, options: LiveOptions): void {
  if (options.token) {
    // A bearer token on the command line replaces every other way of getting one.
    for (const key of ['token-file', 'exec', 'auth-provider', 'username', 'password']) delete user[key];
    user['token'] = options.token;
  }
  if (options.clientCertificate) {
    delete user['client-certificate-data'];
    user['client-certificate'] = path.resolve(options.clientCertificate);
  }
  if (options.clientKey) {
    delete user['client-key-data'];
    user['client-key'] = path.resolve(options.clientKey);
  }
}

/** --as and --as-group, else the user's `as` and `as-groups`; groups need a user. */
function impersonation(options: LiveOptions, user: Raw): { user?: string; groups: string[] } {
  const impersonateUser = options.as ?? str(user, 'as');
  const kubeconfigGroups = Array.isArray(user['as-groups']) ? user['as-groups'].filter((g): g is string => typeof g === 'string') : [];
  const groups = options.asGroups.length > 0 ? options.asGroups : kubeconfigGroups;
  if (groups.length > 0 && !impersonateUser) throw new UsageError('--as-group needs --as: groups can only be impersonated together with a user');
  return { user: impersonateUser, groups };
}

/** The effective cluster as client-node takes it. */
function clientCluster(name: string, raw: Raw, server: string): Cluster {
  return {
    name,
    server,
    skipTLSVerify: raw['insecure-skip-tls-verify'] === true,
    ...(str(raw, 'certificate-authority-data') ? { caData: str(raw, 'certificate-authority-data') } : {}),
    ...(str(raw, 'certificate-authority') ? { caFile: str(raw, 'certificate-authority') } : {}),
    ...(str(raw, 'tls-server-name') ? { tlsServerName: str(raw, 'tls-server-name') } : {}),
    ...(str(raw, 'proxy-url') ? { proxyUrl: str(raw, 'proxy-url') } : {}),
  };
}

/** The effective user as client-node takes it; a token-file is read here, so a missing one fails now, naming the user. */
function clientUser(name: string, raw: Raw): User {
  const tokenFile = str(raw, 'token-file');
  const token = str(raw, 'token') ?? (tokenFile ? readTokenFile(tokenFile, name) : undefined);
  return {
    name,
    ...(str(raw, 'client-certificate-data') ? { certData: str(raw, 'client-certificate-data') } : {}),
    ...(str(raw, 'client-certificate') ? { certFile: str(raw, 'client-certificate') } : {}),
    ...(str(raw, 'client-key-data') ? { keyData: str(raw, 'client-key-data') } : {}),
    ...(str(raw, 'client-key') ? { keyFile: str(raw, 'client-key') } : {}),
    ...(isObject(raw['exec']) ? { exec: raw['exec'] } : {}),
    ...(isObject(raw['auth-provider']) ? { authProvider: raw['auth-provider'] } : {}),
    ...(token ? { token } : {}),
    ...(str(raw, 'username') ? { username: str(raw, 'username'), password: str(raw, 'password') ?? '' } : {}),
  };
}

/** One line naming the context, server, user and impersonation; never a secret. */
function describeTarget(server: string, context: Chosen, userName: string | undefined, as: { user?: string; groups: string[] }): string {
  const parts = [`server ${server}`];
  if (userName) parts.push(`user "${userName}"`);
  if (as.user) parts.push(`as "${as.user}"${as.groups.length > 0 ? ` (groups ${as.groups.join(', ')})` : ''}`);
  return context.name && context.raw ? `context "${context.name}" (${parts.join(', ')})` : parts.join(', ');
}

function proxyEnvOf(env: Env): Env {
  const proxyKeys = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
  const proxyEnv: Record<string, string> = {};
  for (const key of proxyKeys) {
    const value = env[key];
    if (value !== undefined) proxyEnv[key] = value;
  }
  return proxyEnv;
}

export function loadConfig(options: LiveOptions, env: Env): LiveConfig {
  const merged = mergedKubeconfig(options, env);
  const context = chooseContext(merged, options);
  const cluster = chooseCluster(merged, options, context);
  const user = chooseUser(merged, options, context);
  const as = impersonation(options, user.raw);
  // Exactly one context, cluster and user: the effective ones.
  const names = { cluster: cluster.name ?? 'why-pending', user: user.name ?? 'why-pending', context: context.name ?? 'why-pending' };
  const namespace = str(context.raw, 'namespace');
  const kubeConfig = new Kubeconfig({
    clusters: [clientCluster(names.cluster, cluster.raw, cluster.server)],
    users: [clientUser(names.user, user.raw)],
    contexts: [{ name: names.context, cluster: names.cluster, user: names.user, ...(namespace ? { namespace } : {}) } satisfies Context],
    currentContext: names.context,
  });
  const server = redactUrl(cluster.server);
  return {
    kubeConfig,
    namespace: options.namespace ?? namespace ?? 'default',
    describe: describeTarget(server, context, user.name, as),
    server,
    requestTimeoutMs: options.requestTimeoutMs,
    ...(as.user ? { impersonate: { user: as.user, groups: as.groups } } : {}),
    proxyEnv: proxyEnvOf(env),
  };
}
