// The cluster names completion offers, read like kubectl's own completion: one GET each
// (namespaces; the Pending pods of the namespace), with the connection flags typed so far, a
// short timeout and a single try. Completion must never hang a shell or print a stack trace, so
// any failure means no names.
import { loadConfig } from '../sources/live/config.js';
import { liveOptionsFrom } from '../sources/live/flags.js';
import { pathOf, resources } from '../sources/live/resources.js';
import { Transport, type GetRequest } from '../sources/live/transport.js';
import type { Lookups } from './completion.js';

/** The longest a completion waits for the API server, whatever --request-timeout says. */
const timeoutMs = 3000;

/** One page is plenty to offer at a prompt. */
const limit = 500;

interface NameList {
  items?: { metadata?: { name?: string } }[];
}

async function names(opts: Record<string, unknown>, request: (namespace: string) => GetRequest): Promise<string[]> {
  let transport: Transport | undefined;
  try {
    const options = liveOptionsFrom(opts);
    const requestTimeoutMs = options.requestTimeoutMs > 0 ? Math.min(options.requestTimeoutMs, timeoutMs) : timeoutMs;
    const config = loadConfig({ ...options, requestTimeoutMs }, process.env);
    transport = new Transport(config, { tries: 1, connectTimeoutMs: timeoutMs });
    const list = (await transport.get(request(config.namespace))) as NameList;
    return (list.items ?? []).flatMap((item) => (item.metadata?.name ? [item.metadata.name] : [])).sort();
  } catch {
    return [];
  } finally {
    transport?.close();
  }
}

export const liveLookups: Lookups = {
  // Namespaces are not a snapshot collection, so not in the resource table.
  namespaces: (opts) => names(opts, () => ({ path: '/api/v1/namespaces', query: { limit }, what: 'listing namespaces' })),
  pendingPods: (opts) =>
    names(opts, (namespace) => ({
      path: pathOf(resources.pods, namespace),
      query: { fieldSelector: 'status.phase=Pending', limit },
      what: 'listing pending pods',
    })),
};
