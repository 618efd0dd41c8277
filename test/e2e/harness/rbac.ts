// Read-only RBAC for the users that run why-pending in the end-to-end tests: the README's own
// "Minimal read-only roles" (its Permissions section), the full-use ClusterRole and the
// namespace-only Role, so the tests prove what the README promises. They hold only reads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { Obj } from './cluster.js';
import type { TestCluster } from './index.js';

export const READ_ONLY_VERBS = ['get', 'list', 'watch'];

export interface Rule {
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
  verbs: string[];
}

/** What the README says a reader needs: the rules of its ClusterRole and of its Role. */
export function readmeRoles(readme = join(import.meta.dirname, '..', '..', '..', 'README.md')): { clusterRole: Rule[]; role: Rule[]; autoscalerStatusRole: Rule[] } {
  const text = readFileSync(readme, 'utf8');
  const blocks = [...text.matchAll(/```ya?ml\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const docs = blocks.flatMap((b) => parseAllDocuments(b).map((d) => d.toJS() as { kind?: string; rules?: Rule[] } | null));
  const rules = (kind: string) => {
    const found = docs.find((d) => d?.kind === kind && Array.isArray(d.rules));
    if (!found?.rules) throw new Error(`${readme}: no ${kind} with rules in a yaml block (the Permissions section's minimal roles)`);
    return found.rules;
  };
  const named = (name: string) => {
    const found = docs.find((d) => d?.kind === 'Role' && (d as { metadata?: { name?: string } }).metadata?.name === name && Array.isArray(d.rules));
    if (!found?.rules) throw new Error(`${readme}: no Role ${name} with rules in a yaml block (the Permissions section)`);
    return found.rules;
  };
  return { clusterRole: rules('ClusterRole'), role: rules('Role'), autoscalerStatusRole: named(AUTOSCALER_STATUS_ROLE) };
}

const FULL_ROLE = 'why-pending-reader';
const NAMESPACE_ROLE = 'why-pending-namespace-reader';
const AUTOSCALER_STATUS_ROLE = 'why-pending-autoscaler-status';

const subject = (user: string) => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user });

/** The README's ClusterRole and a ClusterRoleBinding for each of `users`. */
export function fullReadObjects(users: string[]): Obj[] {
  return [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: FULL_ROLE }, rules: readmeRoles().clusterRole },
    ...users.map((u) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: `${FULL_ROLE}-${u}` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: FULL_ROLE },
      subjects: [subject(u)],
    })),
  ];
}

/** The README's Role for cluster-autoscaler's status ConfigMap, in kube-system, and a RoleBinding there for each of `users`. */
export function autoscalerStatusObjects(users: string[]): Obj[] {
  return [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: AUTOSCALER_STATUS_ROLE, namespace: 'kube-system' }, rules: readmeRoles().autoscalerStatusRole },
    ...users.map((u) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: `${AUTOSCALER_STATUS_ROLE}-${u}`, namespace: 'kube-system' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: AUTOSCALER_STATUS_ROLE },
      subjects: [subject(u)],
    })),
  ];
}

/** The README's ClusterRole without its namespaces rule, bound to `user`: a reader who cannot see namespaces. */
export function clusterReadWithoutNamespaces(user: string): Obj[] {
  const rules = readmeRoles().clusterRole.filter((r) => !r.resources.includes('namespaces'));
  return [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'wp-reader-no-namespaces' }, rules },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: `wp-reader-no-namespaces-${user}` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'wp-reader-no-namespaces' },
      subjects: [subject(user)],
    },
  ];
}

/** The README's Role in `namespace` and a RoleBinding there for each of `users`. */
export function namespaceReadObjects(namespace: string, users: string[]): Obj[] {
  return [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: NAMESPACE_ROLE, namespace }, rules: readmeRoles().role },
    ...users.map((u) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: `${NAMESPACE_ROLE}-${u}`, namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: NAMESPACE_ROLE },
      subjects: [subject(u)],
    })),
  ];
}

export interface Access {
  verb: string;
  resource: string;
  group?: string;
  namespace?: string;
}

/** Asks the apiserver (as the admin, SubjectAccessReview) whether `user` may do `access`. */
export async function allowed(c: TestCluster, user: { name: string; groups: string[] }, access: Access): Promise<boolean> {
  const review = await c.api.post<{ status?: { allowed?: boolean } }>('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: {
      user: user.name,
      groups: [...user.groups, 'system:authenticated'],
      resourceAttributes: {
        verb: access.verb,
        resource: access.resource,
        group: access.group ?? '',
        ...(access.namespace ? { namespace: access.namespace } : {}),
      },
    },
  });
  return review.status?.allowed === true;
}

/** Writes the read-only users must not be able to make, checked once per user. */
export const WRITE_PROBES: Access[] = ['create', 'update', 'patch', 'delete', 'deletecollection'].flatMap((verb) => [
  { verb, resource: 'pods' },
  { verb, resource: 'nodes' },
  { verb, resource: 'events' },
  { verb, resource: 'deployments', group: 'apps' },
  { verb, resource: 'persistentvolumeclaims' },
]);
