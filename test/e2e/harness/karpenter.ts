// Karpenter's KWOK provider (sigs.k8s.io/karpenter/kwok) and kwok's controller (sigs.k8s.io/kwok)
// against the test control plane, both built from the modules pinned in test/karpenter/go.mod by
// test/karpenter/build.sh. Karpenter creates NodeClaims and their Node objects; kwok plays the
// kubelet of every node annotated kwok.x-k8s.io/node=fake (the annotation the provider puts on
// the nodes it creates, kwok/cloudprovider/cloudprovider.go): the node becomes Ready and pods
// bound to it Running. The node lifecycle controller (on in karpenterControlPlane) removes the
// not-ready taint admission puts on new nodes, as in a real cluster.
//
//   const c = await startTestCluster(karpenterControlPlane());
//   const k = await startKarpenter(c);
//   try { ... } finally { await k.stop(); await c.stop(); }
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ControlPlaneOptions, TestCluster } from './index.js';
import { freePorts } from './ports.js';
import { assertRunning, startProcess, stopProcess, type Managed } from './processes.js';
import { fatal, waitFor } from './wait.js';

const buildScript = resolve(fileURLToPath(import.meta.url), '../../../karpenter/build.sh');

/** The annotation (and label) Karpenter's KWOK provider puts on its nodes, and kwok's selector. */
export const KWOK_ANNOTATION = { key: 'kwok.x-k8s.io/node', value: 'fake' } as const;

export interface KarpenterBinaries {
  karpenter: string;
  kwok: string;
  crds: string;
  stages: string;
}

/**
 * WHY_PENDING_KARPENTER_BIN_DIR and WHY_PENDING_KWOK_BIN_DIR (the two cache folders) skip the
 * build; otherwise build.sh builds what is missing and prints them.
 */
export async function ensureKarpenterBinaries(): Promise<KarpenterBinaries> {
  let karpenterDir = process.env.WHY_PENDING_KARPENTER_BIN_DIR;
  let kwokDir = process.env.WHY_PENDING_KWOK_BIN_DIR;
  if (!karpenterDir || !kwokDir) {
    const out = await new Promise<string>((res, rej) => {
      const child = spawn('bash', [buildScript], { stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.on('data', (c: Buffer) => (text += c.toString()));
      child.on('error', rej);
      child.on('exit', (code) => (code === 0 ? res(text) : rej(new Error(`${buildScript} failed (exit ${String(code)})`))));
    });
    const lines = out.trim().split('\n');
    kwokDir = lines.pop() ?? '';
    karpenterDir = lines.pop() ?? '';
  }
  const bins = { karpenter: join(karpenterDir, 'karpenter-kwok'), kwok: join(kwokDir, 'kwok'), crds: join(karpenterDir, 'crds'), stages: join(kwokDir, 'stages.yaml') };
  for (const p of Object.values(bins)) if (!existsSync(p)) throw new Error(`missing ${p}`);
  return bins;
}

/**
 * Control plane options for Karpenter: the node lifecycle controller too (it removes
 * node.kubernetes.io/not-ready once kwok reports the node Ready), with a grace period longer
 * than kwok's heartbeat (20 to 45 s), so that no node is taken for unreachable.
 */
export function karpenterControlPlane(opts: ControlPlaneOptions = {}): ControlPlaneOptions {
  return {
    ...opts,
    controllers: [
      'deployment-controller',
      'replicaset-controller',
      'serviceaccount-token-controller',
      'serviceaccount-controller',
      'clusterrole-aggregation-controller',
      'node-lifecycle-controller',
    ],
    extraArgs: {
      ...opts.extraArgs,
      'kube-controller-manager': ['--node-monitor-grace-period=5m', ...(opts.extraArgs?.['kube-controller-manager'] ?? [])],
    },
  };
}

export interface Karpenter {
  logs: { karpenter: string; kwok: string };
  stop(): Promise<void>;
}

export interface KarpenterOptions {
  /** Extra environment for Karpenter (BATCH_IDLE_DURATION, FEATURE_GATES, ...). */
  env?: Record<string, string>;
  /**
   * The KWOKNodeClass's spec.nodeRegistrationDelay ("20s"): how long the provider waits before
   * it creates a launched NodeClaim's Node, as a real instance takes to boot.
   */
  nodeRegistrationDelay?: string;
  log?: (msg: string) => void;
}

/**
 * Installs Karpenter's CRDs, a Ready KWOKNodeClass `default`, and starts kwok and Karpenter as
 * the admin. Leader election is off (one replica); Karpenter has no webhooks since v1.
 */
export async function startKarpenter(c: TestCluster, opts: KarpenterOptions = {}): Promise<Karpenter> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`[karpenter] ${m}\n`));
  const t0 = Date.now();
  const bins = await ensureKarpenterBinaries();
  const crdFiles = readdirSync(bins.crds).filter((f) => f.endsWith('.yaml')).map((f) => join(bins.crds, f));
  await c.kubectl(['apply', '--server-side', ...crdFiles.flatMap((f) => ['-f', f])]);
  for (const crd of ['nodepools.karpenter.sh', 'nodeclaims.karpenter.sh', 'kwoknodeclasses.karpenter.kwok.sh']) {
    await c.kubectl(['wait', '--for=condition=Established', '--timeout=60s', `crd/${crd}`]);
  }
  // The node class the provider resolves; its Ready condition is what a real provider's
  // controller would set (the KWOK provider has none), so the harness sets it.
  const spec = opts.nodeRegistrationDelay ? { spec: { nodeRegistrationDelay: opts.nodeRegistrationDelay } } : {};
  await c.api.post('/apis/karpenter.kwok.sh/v1alpha1/kwoknodeclasses', { apiVersion: 'karpenter.kwok.sh/v1alpha1', kind: 'KWOKNodeClass', metadata: { name: 'default' }, ...spec });
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  await c.api.patch('/apis/karpenter.kwok.sh/v1alpha1/kwoknodeclasses/default/status', {
    status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: '', lastTransitionTime: now, observedGeneration: 1 }] },
  });

  const logs = { karpenter: join(c.dir, 'logs', 'karpenter.log'), kwok: join(c.dir, 'logs', 'kwok.log') };
  const [metrics, health, kwokPort] = (await freePorts(3)) as [number, number, number];
  const procs: Managed[] = [];
  const stop = async () => {
    for (const p of [...procs].reverse()) await stopProcess(p);
  };
  try {
    procs.push(
      startProcess('kwok', bins.kwok, [
        `--kubeconfig=${c.kubeconfig}`,
        `--config=${bins.stages}`,
        `--manage-nodes-with-annotation-selector=${KWOK_ANNOTATION.key}=${KWOK_ANNOTATION.value}`,
        `--server-address=127.0.0.1:${kwokPort}`,
        '--node-ip=127.0.0.1',
        '--cidr=10.244.0.0/16',
      ], logs.kwok),
    );
    const karpenter = startProcess('karpenter', bins.karpenter, [], logs.karpenter, {
      KUBECONFIG: c.kubeconfig,
      SYSTEM_NAMESPACE: 'kube-system',
      DISABLE_LEADER_ELECTION: 'true',
      METRICS_PORT: String(metrics),
      HEALTH_PROBE_PORT: String(health),
      LOG_LEVEL: 'debug',
      // Short batches: a test pod is provisioned for within about a second.
      BATCH_IDLE_DURATION: '1s',
      BATCH_MAX_DURATION: '3s',
      ...opts.env,
    });
    procs.push(karpenter);
    await waitFor('karpenter /readyz', async () => {
      for (const p of procs) {
        try {
          assertRunning(p);
        } catch (e) {
          throw fatal(e);
        }
      }
      const r = await fetch(`http://127.0.0.1:${health}/readyz`).catch(() => undefined);
      return r?.status === 200 ? true : undefined;
    }, { timeoutMs: 120_000 });
    log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)}s (logs ${logs.karpenter}, ${logs.kwok})`);
    return { logs, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
