// The live source's public face, for the CLI, loaded only when a cluster is read: flags in, a
// snapshot out. (The CLI adds kubectl's connection flags from flags.ts, without loading this.)
//   liveOptionsFrom(program.opts())    -> LiveOptions (namespace included)
//   loadConfig(options, process.env)   -> LiveConfig { kubeConfig, namespace, describe, ... }
//   liveSource(config)                 -> Source (sources/source.ts): read({ namespace, name }, progress) -> Snapshot
// Every failure is a ClusterError (exit code 5), a UsageError or a QueryError (2).
export { liveOptionsFrom } from './flags.js';
export { loadConfig } from './config.js';
export { liveSource } from './fetch.js';
