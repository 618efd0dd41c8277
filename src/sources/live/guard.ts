// The one policy for a read the diagnosis can do without (everything but the target): a 403 is
// a gap naming the permission, another refusal a gap saying what failed with the server's own
// words, a 404 an object that is not there (a GET) or, where asked, an API group not served
// (Karpenter's, where it is not installed): no gap. Anything else is thrown. Used by the
// reader (reader.ts), for every live read.
import type { Gap } from '../../snapshot/types.js';
import { ApiStatusError } from './errors.js';
import { rbacName, scopeOf, type Resource } from './resources.js';

export async function readOrGap<T>(
  addGap: (gap: Gap) => void,
  r: Resource,
  verb: 'get' | 'list',
  namespace: string | undefined,
  what: string,
  run: () => Promise<T>,
  notFoundIsAbsent = verb === 'get',
): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ApiStatusError)) throw error;
    if (error.status === 404 && notFoundIsAbsent) return undefined;
    if (error.status === 403) {
      addGap({ collection: r.collection, cause: 'forbidden', permission: { verb, resource: rbacName(r), scope: scopeOf(r, namespace) } });
    } else {
      const why = error.status === 404 ? `the API server does not serve ${rbacName(r)}` : `${error.status} ${error.reason}${error.serverMessage ? `: ${error.serverMessage}` : ''}`;
      addGap({ collection: r.collection, cause: 'error', detail: `${what}: ${why}` });
    }
    return undefined;
  }
}
