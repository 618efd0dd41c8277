// Evidence that a dump captured a kind even when it holds no object of it. A single `kubectl get
// a,b,c -o yaml` List keeps no trace of an empty kind, so a kind without objects is a gap; but a
// file named after the kind (the README's capture writes one per kind: `pv.yaml`), or an empty
// typed list (`PodList`, as `kubectl cluster-info dump` and the API write them), says "captured,
// none there".
import path from 'node:path';
import { collectionOfKind, type CollectionName } from '../../snapshot/types.js';

/** kubectl's names for each collection: plural, singular and short names, lower case. */
const namesOf: Record<CollectionName, string[]> = {
  pods: ['pods', 'pod', 'po'],
  nodes: ['nodes', 'node', 'no'],
  events: ['events', 'event', 'ev'],
  persistentVolumeClaims: ['persistentvolumeclaims', 'persistentvolumeclaim', 'pvc'],
  persistentVolumes: ['persistentvolumes', 'persistentvolume', 'pv'],
  storageClasses: ['storageclasses', 'storageclass', 'sc'],
  csiNodes: ['csinodes', 'csinode'],
  replicaSets: ['replicasets', 'replicaset', 'rs'],
  deployments: ['deployments', 'deployment', 'deploy'],
  statefulSets: ['statefulsets', 'statefulset', 'sts'],
  daemonSets: ['daemonsets', 'daemonset', 'ds'],
  jobs: ['jobs', 'job'],
  cronJobs: ['cronjobs', 'cronjob', 'cj'],
  limitRanges: ['limitranges', 'limitrange', 'limits'],
  resourceQuotas: ['resourcequotas', 'resourcequota', 'quota'],
  priorityClasses: ['priorityclasses', 'priorityclass', 'pc'],
};

const byName = new Map<string, CollectionName>(
  (Object.entries(namesOf) as [CollectionName, string[]][]).flatMap(([collection, names]) => names.map((n) => [n, collection] as const)),
);

/** The collection a dump file is named after (`pv.yaml`, `persistentvolumes.json`), if any. */
export function collectionOfFile(file: string): CollectionName | undefined {
  const base = path.basename(file).replace(/\.(ya?ml|json)$/i, '').toLowerCase();
  return byName.get(base);
}

/** The collection a typed list's kind holds (`PodList` -> pods; `EventList` -> events). */
export function collectionOfListKind(kind: unknown): CollectionName | undefined {
  if (typeof kind !== 'string' || kind === 'List' || !kind.endsWith('List')) return undefined;
  const item = kind.slice(0, -'List'.length);
  if (item === 'Event') return 'events';
  return Object.hasOwn(collectionOfKind, item) ? collectionOfKind[item as keyof typeof collectionOfKind] : undefined;
}
