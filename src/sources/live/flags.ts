// kubectl's connection flags, added to the command line with kubectl's names and meanings, and
// read back into one typed record. `-n/--namespace` belongs to the program already and is taken
// as an input here.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UsageError } from '../../errors.js';

export interface LiveOptions {
  /** --kubeconfig: use only this file (no KUBECONFIG merging). */
  kubeconfig?: string;
  context?: string;
  cluster?: string;
  user?: string;
  /** -n/--namespace; when unset, the context's namespace, else "default". */
  namespace?: string;
  /** --request-timeout in milliseconds; 0 or unset means no limit per request (kubectl's default). */
  requestTimeoutMs: number;
  /** --as: impersonate this user. */
  as?: string;
  /** --as-group, repeatable: impersonate these groups (needs --as). */
  asGroups: string[];
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  /** -s/--server: the API server's address, overriding the cluster's. */
  server?: string;
  /** --token: a bearer token, replacing the user's credentials. */
  token?: string;
  certificateAuthority?: string;
  clientCertificate?: string;
  clientKey?: string;
}

const units: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * kubectl's --request-timeout: a plain integer is seconds, otherwise a Go duration (`1m30s`,
 * `500ms`, `1.5h`); `0` means no timeout. Returns milliseconds.
 */
export function parseRequestTimeout(text: string): number {
  const value = text.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  while (at < value.length) {
    part.lastIndex = at;
    const match = part.exec(value);
    if (!match) break;
    total += Number(match[1]) * (units[match[2] ?? ''] ?? 0);
    at = part.lastIndex;
  }
  if (value === '' || at !== value.length) {
    throw new InvalidArgumentError('use a whole number of seconds, or a number with a unit (30s, 2m, 1h); 0 means no timeout.');
  }
  return Math.ceil(total);
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function addLiveOptions(program: Command): Command {
  const group = 'Cluster connection (as kubectl):';
  const options = [
    new Option('--kubeconfig <path>', 'path to the kubeconfig file to use (instead of KUBECONFIG or ~/.kube/config)'),
    new Option('--context <name>', 'the kubeconfig context to use'),
    new Option('--cluster <name>', 'the kubeconfig cluster to use'),
    new Option('--user <name>', 'the kubeconfig user to use'),
    new Option('--request-timeout <duration>', 'time to wait for each request to the server (0s, 30s, 1m; 0 = no limit)').argParser(parseRequestTimeout),
    new Option('--as <user>', 'user to impersonate for the operation'),
    new Option('--as-group <group>', 'group to impersonate (repeat for several)').argParser(collect),
    new Option('--insecure-skip-tls-verify', "do not verify the server's certificate (insecure)"),
    new Option('--tls-server-name <name>', "server name used to verify the server's certificate"),
    new Option('--certificate-authority <path>', 'path to a CA certificate file for the server'),
    new Option('--client-certificate <path>', 'path to a client certificate file'),
    new Option('--client-key <path>', 'path to a client key file'),
    new Option('-s, --server <address>', 'the address and port of the Kubernetes API server'),
    new Option('--token <token>', 'bearer token for authentication to the API server'),
  ];
  for (const option of options) program.addOption(option.helpGroup(group));
  return program;
}

function text(opts: Record<string, unknown>, key: string): string | undefined {
  const value = opts[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new UsageError(`--${key}: expected text`);
  return value === '' ? undefined : value;
}

/** Reads the options addLiveOptions added (from `program.opts()`), plus `namespace`. */
export function liveOptionsFrom(opts: Record<string, unknown>): LiveOptions {
  const timeout = opts['requestTimeout'];
  let requestTimeoutMs = 0;
  if (typeof timeout === 'number') requestTimeoutMs = timeout;
  else if (typeof timeout === 'string') {
    try {
      requestTimeoutMs = parseRequestTimeout(timeout);
    } catch (error) {
      throw new UsageError(`--request-timeout "${timeout}": ${(error as Error).message}`);
    }
  }
  const groups = opts['asGroup'];
  const asGroups = Array.isArray(groups) ? groups.map(String) : typeof groups === 'string' ? [groups] : [];
  const live: LiveOptions = { requestTimeoutMs, asGroups, insecureSkipTlsVerify: opts['insecureSkipTlsVerify'] === true };
  const fields = [
    ['kubeconfig', 'kubeconfig'],
    ['context', 'context'],
    ['cluster', 'cluster'],
    ['user', 'user'],
    ['namespace', 'namespace'],
    ['as', 'as'],
    ['tlsServerName', 'tlsServerName'],
    ['server', 'server'],
    ['token', 'token'],
    ['certificateAuthority', 'certificateAuthority'],
    ['clientCertificate', 'clientCertificate'],
    ['clientKey', 'clientKey'],
  ] as const;
  for (const [from, to] of fields) {
    const value = text(opts, from);
    if (value !== undefined) live[to] = value;
  }
  return live;
}
