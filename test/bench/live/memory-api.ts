// An ApiClient that builds the live benchmark's cluster in memory, through the same seed
// (seed.ts) that bench:live sends to a control plane: what is posted or put is kept, what is
// patched is merged in, as the apiserver would. The engine alone (engine.ts) and the libraries side by
// side (../libraries/served.ts) read it.
import type { ApiClient } from '../../e2e/harness/api.js';

export function memoryApi(store: Map<string, Record<string, unknown>>): ApiClient {
  const merge = (into: Record<string, unknown>, patch: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete into[k];
      else if (typeof v === 'object' && !Array.isArray(v) && typeof into[k] === 'object' && into[k] !== null) merge(into[k] as Record<string, unknown>, v as Record<string, unknown>);
      else into[k] = v;
    }
  };
  const unsupported = () => Promise.reject(new Error('not in memory'));
  return {
    server: 'memory',
    get: unsupported,
    delete: unsupported,
    raw: unsupported,
    post: (path, body) => {
      const o = body as { metadata: { name: string } };
      store.set(`${path}/${o.metadata.name}`, structuredClone(body) as Record<string, unknown>);
      return Promise.resolve(structuredClone(body) as never);
    },
    // The seeder writes a pod's status with a PUT of the object it posted (seed.ts).
    put: (path, body) => {
      store.set(path.replace(/\/status$/, ''), structuredClone(body) as Record<string, unknown>);
      return Promise.resolve({} as never);
    },
    patch: (path, body) => {
      const key = path.replace(/\/status$/, '');
      const o = store.get(key);
      if (o) merge(o, body as Record<string, unknown>);
      return Promise.resolve({} as never);
    },
  };
}
