// The live source's public face, for the CLI, loaded only when a cluster is read: flags in, a
// snapshot out. (The CLI adds kubectl's connection flags from flags.ts, without loading this.)
//   liveOptionsFrom(program.opts())    -> LiveOptions (namespace included)
//   loadConfig(options, process.env)   -> LiveConfig { kubeConfig, namespace, describe, ... }
//   liveSource(config)                 -> Source (sources/source.ts): read({ namespace, name }, progress) -> Snapshot
// Every failure is a ClusterError (exit code 5), a UsageError or a QueryError (2).
export { liveOptionsFrom } from './flags.js';
export { loadConfig } from './config.js';
import type { Source } from '../source.js';
import type { LiveConfig } from './config.js';
import { readLive, readPodsOn } from './readPod.js';
import { readTriageLive } from './readTriage.js';
import { Transport, type ReadLiveOptions } from './transport.js';
import { readClusterVersion } from './version.js';
import { watcher } from './watch.js';

/** The cluster `config` names as a source; the namespace is the context's unless -n says otherwise. */
export function liveSource(config: LiveConfig, options: ReadLiveOptions = {}): Source {
  return {
    namespace: config.namespace,
    read: (query, progress) => readLive(config, query, progress, options),
    readTriage: (scope, progress) => readTriageLive(config, scope, progress, options),
    watcher: (target) => watcher(config, target),
    readPodsOn: (earlier, target, nodes, progress) => readPodsOn(config, earlier, target, nodes, progress, options),
    serverVersion: async () => {
      const transport = new Transport(config, options);
      options.onTransport?.(transport);
      try {
        return (await readClusterVersion(transport)).version;
      } finally {
        transport.close();
      }
    },
  };
}
