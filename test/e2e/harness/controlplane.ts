// Starts etcd, kube-apiserver, kube-scheduler and kube-controller-manager on 127.0.0.1.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClient, type ApiClient } from './api.js';
import { auditPolicy } from './audit.js';
import { ensureBinaries, type BinaryName, type Binaries } from './binaries.js';
import { writeCredentials, writeKubeconfig, type User, type UserSpec } from './credentials.js';
import { freePorts } from './ports.js';
import { assertRunning, startProcess, stopProcess, type Managed } from './processes.js';
import { fatal, waitFor } from './wait.js';

/**
 * Controllers needed for owners' events and quota; node-lifecycle stays off (it would mark
 * kubelet-less nodes unreachable). clusterrole-aggregation fills the built-in aggregated
 * ClusterRoles (view, edit, admin), which are otherwise empty.
 */
const DEFAULT_CONTROLLERS = [
  'deployment-controller',
  'replicaset-controller',
  'job-controller',
  'statefulset-controller',
  'cronjob-controller',
  'serviceaccount-token-controller',
  'serviceaccount-controller',
  'resourcequota-controller',
  'clusterrole-aggregation-controller',
];

export interface ControlPlaneOptions {
  /**
   * Extra users (e.g. a read-only user bound later with RBAC), with a token or a client
   * certificate. The admin is always there. The apiserver's audit log records every request of
   * these users (level Metadata, all stages) in `auditLog`; the admin's are not recorded.
   */
  users?: UserSpec[];
  /** Replaces DEFAULT_CONTROLLERS. */
  controllers?: string[];
  /** Extra flags per component, appended last. */
  extraArgs?: Partial<Record<BinaryName, string[]>>;
  /** Extra environment per component (e.g. GOGC), over the test process's own. */
  env?: Partial<Record<BinaryName, Record<string, string>>>;
  /** Keep the temp dir (logs, etcd data) after stop(); also WHY_PENDING_KEEP_TMP=1. */
  keepDir?: boolean;
  /**
   * --feature-gates for kube-apiserver, kube-scheduler and kube-controller-manager, e.g.
   * { GenericWorkload: true }; also WHY_PENDING_FEATURE_GATES=GenericWorkload=true,Other=false.
   * Alpha and beta features are off by default and a gate must agree in every component (the
   * apiserver drops a disabled field, the scheduler ignores it), so one value feeds all three.
   */
  featureGates?: Record<string, boolean>;
  /**
   * --runtime-config for kube-apiserver, e.g. ['scheduling.k8s.io/v1beta1=true']; also
   * WHY_PENDING_RUNTIME_CONFIG=scheduling.k8s.io/v1beta1=true,... Beta and alpha API versions are
   * not served by default even when their feature gate is on.
   */
  runtimeConfig?: string[];
  log?: (msg: string) => void;
}

export interface ControlPlane {
  dir: string;
  version: string;
  server: string;
  /** The apiserver's self-signed serving bundle (from --cert-dir), used as CA. */
  caFile: string;
  /** Admin kubeconfig (system:masters). */
  kubeconfig: string;
  /** The apiserver's audit log (JSON lines): the requests of the extra users only. */
  auditLog: string;
  api: ApiClient;
  users: Map<string, User>;
  kubeconfigFor(user: string): string;
  clientFor(user: string): ApiClient;
  logs: Record<BinaryName, string>;
  /** etcd's client URL (its v3 JSON gateway answers there too, e.g. /v3/kv/compaction). */
  etcd: string;
  /**
   * Stops kube-apiserver (SIGTERM, as a restart or an upgrade does) and starts it again with
   * the same flags, port, serving certificate and etcd data; resolves once /readyz answers 200.
   */
  restartApiserver(): Promise<void>;
  /** The process id of a component while it runs (for its RSS and CPU time in /proc). */
  pid(name: BinaryName): number | undefined;
  /**
   * Stops one control loop and leaves the rest running: the apiserver keeps serving what they
   * wrote (a benchmark stops them once their verdicts are in, for the memory they hold).
   */
  stopComponent(name: 'kube-scheduler' | 'kube-controller-manager'): Promise<void>;
  stop(): Promise<void>;
}

/** `--feature-gates=A=true,B=false`, or no flag at all when no gate is set (the default cluster). */
function featureGateArgs(opts: ControlPlaneOptions): string[] {
  const fromEnv = process.env.WHY_PENDING_FEATURE_GATES?.trim();
  const value = opts.featureGates
    ? Object.entries(opts.featureGates).map(([gate, on]) => `${gate}=${String(on)}`).join(',')
    : fromEnv;
  return value ? [`--feature-gates=${value}`] : [];
}

/** `--runtime-config=group/version=true,...`, or no flag at all when none is asked for. */
function runtimeConfigArgs(opts: ControlPlaneOptions): string[] {
  const value = opts.runtimeConfig ? opts.runtimeConfig.join(',') : process.env.WHY_PENDING_RUNTIME_CONFIG?.trim();
  return value ? [`--runtime-config=${value}`] : [];
}

export async function startControlPlane(opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`[controlplane] ${m}\n`));
  const t0 = Date.now();
  const bins: Binaries = await ensureBinaries();
  const dir = mkdtempSync(join(tmpdir(), 'why-pending-cp-'));
  const keep = opts.keepDir ?? process.env.WHY_PENDING_KEEP_TMP === '1';
  mkdirSync(join(dir, 'logs'));
  const logs = Object.fromEntries(
    (['etcd', 'kube-apiserver', 'kube-scheduler', 'kube-controller-manager'] as const).map((b) => [b, join(dir, 'logs', `${b}.log`)]),
  ) as Record<BinaryName, string>;
  const procs: Managed[] = [];
  let stopped = false;

  const removeDir = () => {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };
  const onExit = () => {
    for (const p of procs) p.child.kill('SIGKILL'); // exit handlers are synchronous: no graceful stop
    removeDir();
  };
  const onSignal = (sig: NodeJS.Signals) => {
    void stop().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
  };
  process.on('exit', onExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    for (const p of [...procs].reverse()) await stopProcess(p);
    process.off('exit', onExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    removeDir();
    log(keep ? `stopped; kept ${dir}` : 'stopped');
  }

  const running = (name: BinaryName) => procs.find((p) => p.name === name && p.exitCode() === undefined);
  const pid = (name: BinaryName) => running(name)?.child.pid;
  async function stopComponent(name: 'kube-scheduler' | 'kube-controller-manager'): Promise<void> {
    const p = running(name);
    if (p) await stopProcess(p);
    log(`${name} stopped`);
  }

  try {
    const [etcdClient, etcdPeer, apiPort, schedPort, kcmPort] = (await freePorts(5)) as [number, number, number, number, number];
    const creds = writeCredentials(dir, opts.users);
    const extra = (b: BinaryName) => opts.extraArgs?.[b] ?? [];
    const envOf = (b: BinaryName) => opts.env?.[b] ?? {};
    // Before each component's extra flags, so extraArgs can still override them.
    const gates = featureGateArgs(opts);
    const auditPolicyFile = join(dir, 'audit-policy.yaml');
    const auditLog = join(dir, 'logs', 'audit.log');
    writeFileSync(auditPolicyFile, auditPolicy((opts.users ?? []).map((u) => u.name)));
    writeFileSync(auditLog, '');

    // etcd
    const etcdURL = `http://127.0.0.1:${etcdClient}`;
    procs.push(
      startProcess('etcd', bins.etcd, [
        `--data-dir=${join(dir, 'etcd')}`,
        `--listen-client-urls=${etcdURL}`,
        `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
        ...extra('etcd'),
      ], logs.etcd, envOf('etcd')),
    );

    // kube-apiserver
    const certDir = join(dir, 'apiserver-certs');
    const server = `https://127.0.0.1:${apiPort}`;
    const apiserverArgs = [
      `--etcd-servers=${etcdURL}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      `--cert-dir=${certDir}`,
      `--token-auth-file=${creds.tokenFile}`,
      `--client-ca-file=${creds.clientCaFile}`,
      `--audit-policy-file=${auditPolicyFile}`,
      `--audit-log-path=${auditLog}`,
      // Blocking: a request's RequestReceived event is written before the request is served.
      '--audit-log-mode=blocking',
      '--audit-log-format=json',
      '--authorization-mode=Node,RBAC',
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${creds.saPubFile}`,
      `--service-account-signing-key-file=${creds.saKeyFile}`,
      '--service-cluster-ip-range=10.0.0.0/24',
      '--endpoint-reconciler-type=none',
      '--enable-admission-plugins=ResourceQuota,LimitRanger',
      '--allow-privileged=true',
      '--profiling=false',
      ...gates,
      ...runtimeConfigArgs(opts),
      ...extra('kube-apiserver'),
    ];
    let apiserver = startProcess('kube-apiserver', bins['kube-apiserver'], apiserverArgs, logs['kube-apiserver'], envOf('kube-apiserver'));
    procs.push(apiserver);
    const insecure = apiClient(server, creds.admin.token, undefined);
    const apiserverReady = () => waitFor('kube-apiserver /readyz', async () => {
      for (const p of procs) {
        try { assertRunning(p); } catch (e) { throw fatal(e); }
      }
      const r = await insecure.raw('GET', '/readyz');
      return r.status === 200 ? true : undefined;
    }, { timeoutMs: 120_000 });
    await apiserverReady();
    const restartApiserver = async () => {
      await stopProcess(apiserver);
      // The same place in procs: stop() still stops the components in reverse order.
      const next = startProcess('kube-apiserver', bins['kube-apiserver'], apiserverArgs, logs['kube-apiserver'], envOf('kube-apiserver'));
      procs[procs.indexOf(apiserver)] = next;
      apiserver = next;
      await apiserverReady();
    };

    const caFile = join(certDir, 'apiserver.crt');
    if (!existsSync(caFile)) throw new Error(`${caFile} not written by kube-apiserver`);
    const ca = readFileSync(caFile);
    const kubeconfigs = new Map<string, string>();
    const kubeconfigFor = (name: string): string => {
      const u = creds.users.get(name);
      if (!u) throw new Error(`unknown user ${name}`);
      let f = kubeconfigs.get(name);
      if (!f) {
        f = writeKubeconfig(join(dir, `${name}.kubeconfig`), server, caFile, u);
        kubeconfigs.set(name, f);
      }
      return f;
    };
    const clientFor = (name: string): ApiClient => {
      const u = creds.users.get(name);
      if (!u) throw new Error(`unknown user ${name}`);
      if (u.token) return apiClient(server, u.token, ca);
      if (!u.certFile || !u.keyFile) throw new Error(`user ${name} has neither a token nor a certificate`);
      return apiClient(server, { cert: readFileSync(u.certFile), key: readFileSync(u.keyFile) }, ca);
    };
    const kubeconfig = kubeconfigFor(creds.admin.name);
    const api = clientFor(creds.admin.name);
    await api.get('/version'); // proves the CA bundle verifies the serving cert

    // kube-scheduler and kube-controller-manager, both as the admin (system:masters).
    const delegated = [
      `--kubeconfig=${kubeconfig}`,
      `--authentication-kubeconfig=${kubeconfig}`,
      `--authorization-kubeconfig=${kubeconfig}`,
      '--bind-address=127.0.0.1',
      '--leader-elect=false',
    ];
    const scheduler = startProcess('kube-scheduler', bins['kube-scheduler'], [
      ...delegated,
      `--secure-port=${schedPort}`,
      '--kube-api-qps=200',
      '--kube-api-burst=400',
      ...gates,
      ...extra('kube-scheduler'),
    ], logs['kube-scheduler'], envOf('kube-scheduler'));
    procs.push(scheduler);
    const kcm = startProcess('kube-controller-manager', bins['kube-controller-manager'], [
      ...delegated,
      `--secure-port=${kcmPort}`,
      `--controllers=${(opts.controllers ?? DEFAULT_CONTROLLERS).join(',')}`,
      `--service-account-private-key-file=${creds.saKeyFile}`,
      `--root-ca-file=${caFile}`,
      '--kube-api-qps=200',
      '--kube-api-burst=400',
      ...gates,
      ...extra('kube-controller-manager'),
    ], logs['kube-controller-manager'], envOf('kube-controller-manager'));
    procs.push(kcm);

    const componentReady = (m: Managed, port: number, path: string) => {
      const c = apiClient(`https://127.0.0.1:${port}`, creds.admin.token, undefined);
      return waitFor(`${m.name} ${path}`, async () => {
        try { assertRunning(m); } catch (e) { throw fatal(e); }
        const r = await c.raw('GET', path);
        return r.status === 200 ? true : undefined;
      }, { timeoutMs: 60_000 });
    };
    // The scheduler's /readyz includes sched-handler-sync (informers and handlers synced).
    await Promise.all([componentReady(scheduler, schedPort, '/readyz'), componentReady(kcm, kcmPort, '/healthz')]);
    // The serviceaccount controller creates "default" in each namespace; pods need it.
    await waitFor('default/default ServiceAccount', () =>
      api.get('/api/v1/namespaces/default/serviceaccounts/default').then(() => true),
    );

    const version = (await api.get<{ gitVersion: string }>('/version')).gitVersion;
    log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)}s: ${server} (${version}), kubeconfig ${kubeconfig}`);
    return { dir, version, server, caFile, kubeconfig, auditLog, api, users: creds.users, kubeconfigFor, clientFor, logs, etcd: etcdURL, restartApiserver, pid, stopComponent, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
