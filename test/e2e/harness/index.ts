// A real control plane for end-to-end tests (see DESIGN.md, "A real control plane for tests").
//
//   const c = await startTestCluster({ users: [{ name: 'viewer' }, { name: 'alice', auth: 'certificate' }] });
//   try {
//     await c.createNode('n1', { allocatable: { cpu: '2' } });
//     await c.apply([podManifest]);
//     const { condition } = await c.waitForPodScheduled('default', 'web-0');
//   } finally { await c.stop(); }
import {
  apply, createNode, deletePodNow, waitForEvent, waitForPodScheduled, waitForServiceAccount,
  type NodeSpec, type Obj, type PodCondition, type PodLike,
} from './cluster.js';
import { AuditLog } from './audit.js';
import { startControlPlane, type ControlPlane, type ControlPlaneOptions } from './controlplane.js';
import { kubectl, type KubectlResult } from './kubectl.js';

export interface TestCluster extends ControlPlane {
  /** The audit log of the non-admin users' requests. */
  audit: AuditLog;
  createNode(name: string, spec?: NodeSpec): Promise<Obj>;
  apply(objects: Obj[]): Promise<void>;
  kubectl(args: string[], input?: string): Promise<KubectlResult>;
  waitForPodScheduled(ns: string, name: string, timeoutMs?: number): Promise<{ pod: PodLike; condition: PodCondition }>;
  waitForEvent(ns: string, involvedName: string, reason: string, timeoutMs?: number): Promise<Obj>;
  waitForServiceAccount(ns: string, name?: string): Promise<void>;
  deletePodNow(ns: string, name: string): Promise<void>;
}

export async function startTestCluster(opts: ControlPlaneOptions = {}): Promise<TestCluster> {
  const cp = await startControlPlane(opts);
  return {
    ...cp,
    audit: new AuditLog(cp.auditLog),
    createNode: (name, spec) => createNode(cp, name, spec),
    apply: (objects) => apply(cp, objects),
    kubectl: (args, input) => kubectl(cp.kubeconfig, args, input),
    waitForPodScheduled: (ns, name, timeoutMs) => waitForPodScheduled(cp, ns, name, timeoutMs),
    waitForEvent: (ns, n, reason, timeoutMs) => waitForEvent(cp, ns, n, reason, timeoutMs),
    waitForServiceAccount: (ns, name) => waitForServiceAccount(cp, ns, name),
    deletePodNow: (ns, name) => deletePodNow(cp, ns, name),
  };
}

export type { ControlPlane, ControlPlaneOptions } from './controlplane.js';
export type { NodeSpec, Obj, PodCondition, PodLike } from './cluster.js';
export type { UserSpec } from './credentials.js';
export type { AuditEvent } from './audit.js';
