// Evidence that a dump captured a kind even when it holds no object of it. A single `kubectl get
// a,b,c -o yaml` List keeps no trace of an empty kind, so a kind without objects is a gap; but a
// file named after the kind (the README's capture writes one per kind: `pv.yaml`), or an empty
// typed list (`PodList`, as `kubectl cluster-info dump` and the API write them), says "captured,
// none there".
import path from 'node:path';
import { apiResources, collectionOfKind, type ApiResource, type CollectionName } from '../../snapshot/types.js';

/** kubectl's names for each collection, lower case: plural, singular (the kind) and short names. */
const byName = new Map<string, CollectionName>(
  (Object.entries(apiResources) as [CollectionName, ApiResource][]).flatMap(([collection, r]) =>
    [r.plural, r.kind.toLowerCase(), ...r.shortNames].map((name) => [name, collection] as const),
  ),
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
