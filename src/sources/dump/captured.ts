// Evidence that a dump captured a kind even when it holds no object of it. A single `kubectl get
// a,b,c -o yaml` List keeps no trace of an empty kind, so a kind without objects is a gap; but a
// file named after the kind (the README's capture writes one per kind: `pv.yaml`), or an empty
// typed list (`PodList`, as `kubectl cluster-info dump` and the API write them; see objects.ts), says "captured,
// none there".
import path from 'node:path';
import { apiResources, type ApiResource, type CollectionName } from '../../snapshot/types.js';

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

const byKind = new Map<string, CollectionName>((Object.entries(apiResources) as [CollectionName, ApiResource][]).map(([collection, r]) => [r.kind, collection]));

/** The collection objects of `kind` go to (`Pod` -> pods; `Event` -> events), if the snapshot keeps them. */
export function collectionOfItemKind(kind: string | undefined): CollectionName | undefined {
  return kind === undefined ? undefined : byKind.get(kind);
}
