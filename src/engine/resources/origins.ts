// Where a request came from, when the user did not write it. Admission copies a container's
// limits into missing requests (API defaulting), and the LimitRanger admission plugin fills
// defaults and says so in the `kubernetes.io/limit-ranger` annotation:
//   "LimitRanger plugin set: cpu, memory request for container app; cpu limit for init container x"
import type { V1Container, V1ManagedFieldsEntry, V1Pod } from '@kubernetes/client-node';

export interface RequestOrigin {
  container: string;
  resource: string;
  from: 'limits' | 'limitRange';
}

export function requestOrigins(pod: V1Pod): RequestOrigin[] {
  const fromLimitRange = limitRangerDefaults(pod.metadata?.annotations?.['kubernetes.io/limit-ranger']);
  const origins: RequestOrigin[] = [];
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
  for (const container of all) {
    for (const resource of Object.keys({ ...container.resources?.requests, ...container.resources?.limits })) {
      if (fromLimitRange.has(`${container.name}/${resource}`)) {
        origins.push({ container: container.name, resource, from: 'limitRange' });
      } else if (requestCopiedFromLimit(pod, container, resource)) {
        origins.push({ container: container.name, resource, from: 'limits' });
      }
    }
  }
  return origins;
}

function limitRangerDefaults(annotation: string | undefined): Set<string> {
  const out = new Set<string>();
  if (!annotation) return out;
  const body = annotation.replace(/^LimitRanger plugin set:\s*/, '');
  for (const clause of body.split(';')) {
    const match = /^\s*(.+?)\s+request for (?:init )?container\s+(\S+)\s*$/.exec(clause);
    if (!match?.[1] || !match[2]) continue;
    for (const resource of match[1].split(',')) out.add(`${match[2]}/${resource.trim()}`);
  }
  return out;
}

// A request equal to its limit that no field manager ever wrote was set by defaulting. A
// manifest not yet admitted (no request at all, a limit) will be defaulted the same way.
function requestCopiedFromLimit(pod: V1Pod, container: V1Container, resource: string): boolean {
  const request = container.resources?.requests?.[resource];
  const limit = container.resources?.limits?.[resource];
  if (limit === undefined) return false;
  if (request === undefined) return true;
  const managed = pod.metadata?.managedFields;
  if (!managed || managed.length === 0 || String(request) !== String(limit)) return false;
  return !managed.some((entry) => writesRequest(entry, container.name, resource));
}

function writesRequest(entry: V1ManagedFieldsEntry, containerName: string, resource: string): boolean {
  const fields = entry.fieldsV1 as Record<string, unknown> | undefined;
  const spec = fields?.['f:spec'] as Record<string, unknown> | undefined;
  if (!spec) return false;
  for (const listKey of ['f:containers', 'f:initContainers']) {
    const list = spec[listKey] as Record<string, unknown> | undefined;
    const item = list?.[`k:{"name":"${containerName}"}`] as Record<string, unknown> | undefined;
    const resources = item?.['f:resources'] as Record<string, unknown> | undefined;
    const requests = resources?.['f:requests'] as Record<string, unknown> | undefined;
    if (requests && Object.hasOwn(requests, `f:${resource}`)) return true;
  }
  return false;
}
