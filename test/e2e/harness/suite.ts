// What the end-to-end files share: a control plane with read-only users, a dump taken by the
// admin, the parts of a diagnosis a live run and a dump run must agree on, and timing lines.
import { join } from 'node:path';
import { expect } from 'vitest';
import { startTestCluster, type ControlPlaneOptions, type TestCluster, type UserSpec } from './index.js';
import { BYSTANDER, writeDumpDir } from './probe.js';
import { READ_ONLY_VERBS, WRITE_PROBES, allowed, autoscalerStatusObjects, fullReadObjects, readmeRoles } from './rbac.js';
import type { DiagnosisJson } from './why-pending.js';

/** The user of every full-permission why-pending run: bound to the read-only ClusterRole. */
export const VIEWER = 'wp-viewer';

export interface ClusterOptions {
  /** Extra users besides VIEWER. */
  users?: UserSpec[];
  /** Control plane options beyond users and log (harness/karpenter.ts karpenterControlPlane). */
  controlPlane?: ControlPlaneOptions;
}

/** Fails unless `user` is refused every write in WRITE_PROBES (in `namespace`, or cluster-wide). */
export async function expectNoWrites(c: TestCluster, name: string, namespace?: string): Promise<void> {
  const user = c.users.get(name) ?? { name, groups: [] };
  const granted: string[] = [];
  for (const access of WRITE_PROBES) {
    if (await allowed(c, user, { ...access, ...(namespace ? { namespace } : {}) })) granted.push(`${access.verb} ${access.resource}`);
  }
  if (granted.length > 0) throw new Error(`${name} may ${granted.join(', ')}${namespace ? ` in ${namespace}` : ''}: not a read-only user`);
}

/**
 * Starts a control plane with VIEWER (token) bound to the README's read-only ClusterRole, plus
 * `users`, and checks that none of them can write (SubjectAccessReview as the admin).
 */
export async function startE2eCluster(opts: ClusterOptions = {}): Promise<TestCluster> {
  const users = [{ name: VIEWER }, ...(opts.users ?? [])];
  const c = await startTestCluster({ ...opts.controlPlane, users, log: (m) => console.log(`[controlplane] ${m}`) });
  try {
    // The full reader: the README's ClusterRole and its Role for cluster-autoscaler's status.
    expectReadOnlyRules(readmeRoles().autoscalerStatusRole);
    await c.apply([...fullReadObjects([VIEWER]), ...autoscalerStatusObjects([VIEWER]), BYSTANDER]);
    for (const u of users) await expectNoWrites(c, u.name);
    return c;
  } catch (e) {
    await c.stop();
    throw e;
  }
}

/** Every verb in the RBAC rules given to why-pending users is a read. */
export function expectReadOnlyRules(rules: { verbs: string[] }[]): void {
  for (const r of rules) for (const v of r.verbs) expect(READ_ONLY_VERBS).toContain(v);
}

/** The README's capture as the admin: a folder of one file per kind, in the cluster's dir. */
export async function dumpCluster(c: TestCluster, name: string): Promise<string> {
  return writeDumpDir(c, join(c.dir, `${name}.dump`));
}

/** A FailedCreate message names the pod the controller tried to create, a new name each try, and
 * a recurring one may be rewritten as "(combined from similar events): ..." between two reads. */
const anyPodName = (text: string | undefined): string | undefined => text?.replace(/pods "[^"]+"/g, 'pods "…"').replace(/^\(combined from similar events\): /, '');

/**
 * The parts of a diagnosis that a live read and a dump of the same cluster must give alike:
 * all of it but
 *   gaps                  a dump lacks the kinds `kubectl get` was not asked for (daemonsets,
 *                         cronjobs) and kinds with no object (csinodes), reported as
 *                         absentFromDump; a live read by a full reader has none;
 *   requests.origins from "limits"   proven live by managedFields, which `kubectl get -o yaml` omits
 *                         (a dump proves them by the owner's template, or not at all);
 *   counts.nodes when no node is judged (nodes: [] in both): for a pod-less owner it counts
 *                         the nodes the source holds; a live read reads none, a dump has all;
 *   cluster               a live read asks /version only for a pending pod (checked apart);
 *   FailedCreate events (stageDetail.failures, ownerEvents, summary): compared without the pod
 *                         name (a new one each retry), as a set (the controller keeps retrying
 *                         between the two reads), without counts and times.
 */
export function roundTripView(d: DiagnosisJson): Record<string, unknown> {
  const events = (list: { reason?: string; message?: string; reporter?: string }[]) => {
    const seen = new Map<string, unknown>();
    for (const e of list) {
      const message = anyPodName(e.message);
      seen.set(`${e.reason ?? ''}|${message ?? ''}`, { reason: e.reason, message, reporter: e.reporter });
    }
    return [...seen.values()];
  };
  const stageDetail = { ...d.stageDetail };
  if (Array.isArray(stageDetail.failures)) stageDetail.failures = events(stageDetail.failures) as typeof stageDetail.failures;
  const requests = d.requests && {
    ...d.requests,
    origins: ((d.requests.origins as { from?: string }[] | undefined) ?? []).filter((o) => o.from !== 'limits'),
  };
  const { gaps: _gaps, cluster: _cluster, ...rest } = d;
  return {
    ...rest,
    summary: d.stage === 'AdmissionRejected' ? anyPodName(d.summary) : d.summary,
    stageDetail,
    requests,
    counts: d.nodes.length === 0 ? { ...d.counts, nodes: undefined } : d.counts,
    ownerEvents: events(d.ownerEvents as { reason?: string; message?: string; reporter?: string }[]),
  };
}

/** Seconds with one decimal. */
export const secs = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/** Named phases of one scenario, printed as one line. */
export class Timer {
  private readonly t0 = Date.now();
  private last = this.t0;
  private readonly phases: [string, number][] = [];

  lap(phase: string): void {
    const now = Date.now();
    this.phases.push([phase, now - this.last]);
    this.last = now;
  }

  line(what: string): string {
    return `[e2e] ${what}: ${secs(Date.now() - this.t0)} (${this.phases.map(([p, ms]) => `${p} ${secs(ms)}`).join(', ')})`;
  }
}
