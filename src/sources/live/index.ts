// The live source's public face, for the CLI: flags in, a snapshot out.
//   addLiveOptions(program)            kubectl's connection flags on the command line
//   liveOptionsFrom(program.opts())    -> LiveOptions (namespace included)
//   loadConfig(options, process.env)   -> LiveConfig { kubeConfig, namespace, describe, ... }
//   liveSource(config)                 -> Source (sources/source.ts): read({ namespace, name }, progress) -> Snapshot
// Every failure is a ClusterError (exit code 5), a UsageError or a QueryError (2).
export { addLiveOptions, liveOptionsFrom, parseRequestTimeout, type LiveOptions } from './flags.js';
export { loadConfig, type Env, type LiveConfig } from './config.js';
export { liveSource } from './fetch.js';
