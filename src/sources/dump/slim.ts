// A dump keeps every object it reads until the end, so each is cut, as it arrives, to what
// something under src/ reads. Nothing here is read by the engine or the reports (grep before
// adding a field, and before the engine starts reading one of these):
//   metadata.managedFields   except, for Pods, the entries' record of who wrote a container's
//                            requests (resources/origins.ts tells defaulted requests by it),
//                            and for Nodes, who set spec.unschedulable (fixes/uncordon.ts);
//   Node status.images       every image on the node, often the largest part of a Node;
//   containers' env, envFrom, command, args, probes and lifecycle hooks;
//   a ConfigMap's data but its `status` key (only cluster-autoscaler's status is kept).
// Annotations stay: the engine reads several (kubernetes.io/limit-ranger among them).

import { cordonEntries } from '../cordon.js';
import { isObject } from '../object.js';

const unreadContainerFields = ['env', 'envFrom', 'command', 'args', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'];

/** Of a Pod's managedFields entry, only which containers' requests it wrote (a new object). */
export function requestsWritten(entry: unknown): unknown {
  if (!isObject(entry)) return entry;
  const { fieldsV1, ...rest } = entry;
  const spec = isObject(fieldsV1) ? fieldsV1['f:spec'] : undefined;
  if (!isObject(spec)) return rest;
  const kept: Record<string, unknown> = {};
  for (const listKey of ['f:containers', 'f:initContainers']) {
    const list = spec[listKey];
    if (!isObject(list)) continue;
    const containers: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(list)) {
      const resources = isObject(item) ? item['f:resources'] : undefined;
      const requests = isObject(resources) ? resources['f:requests'] : undefined;
      if (requests !== undefined) containers[key] = { 'f:resources': { 'f:requests': requests } };
    }
    if (Object.keys(containers).length > 0) kept[listKey] = containers;
  }
  return Object.keys(kept).length > 0 ? { ...rest, fieldsV1: { 'f:spec': kept } } : rest;
}

/** Cuts an object (in place) to what is read; `kind` is the object's kind. */
export function slim(kind: string, object: Record<string, unknown>): void {
  const metadata = object['metadata'];
  if (isObject(metadata) && Array.isArray(metadata['managedFields'])) {
    const cordon = kind === 'Node' ? cordonEntries(metadata['managedFields']) : undefined;
    if (kind === 'Pod') metadata['managedFields'] = metadata['managedFields'].map(requestsWritten);
    else if (cordon) metadata['managedFields'] = cordon;
    else delete metadata['managedFields'];
  }
  // Of cluster-autoscaler's status ConfigMap, only the `status` key is read (objects.ts drops
  // every other ConfigMap); other keys and binaryData are dropped unread.
  if (kind === 'ConfigMap') {
    const data = object['data'];
    object['data'] = isObject(data) && data['status'] !== undefined ? { status: data['status'] } : {};
    delete object['binaryData'];
  }
  if (kind === 'Node') {
    const status = object['status'];
    if (isObject(status)) delete status['images'];
  }
  if (kind === 'Pod') {
    const spec = object['spec'];
    if (!isObject(spec)) return;
    for (const listKey of ['containers', 'initContainers', 'ephemeralContainers']) {
      const list = spec[listKey];
      if (!Array.isArray(list)) continue;
      for (const container of list) {
        if (isObject(container)) for (const field of unreadContainerFields) delete container[field];
      }
    }
  }
}
