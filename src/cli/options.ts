// The command line: kubectl's conventions (-n, -o, --kubeconfig...), with examples in --help.
import { Command, Option } from 'commander';
import { outputs, type Output } from '../report/index.js';
import { addLiveOptions } from '../sources/live/flags.js';

export interface CliOptions {
  namespace?: string;
  allNamespaces?: boolean;
  selector?: string;
  fromDump?: string;
  watch?: boolean;
  /** --save, or capture's -f: where the capture of what was read goes. */
  save?: string;
  redactNames?: boolean;
  output: Output;
  color: 'auto' | 'always' | 'never';
}

const examples = `
Examples:
  # Why is pod web-0 in namespace shop pending?
  kubectl why-pending web-0 -n shop

  # Diagnose the pending pods of a Deployment (or rs/, sts/, ds/, job/, cronjob/)
  kubectl why-pending deploy/web -n shop

  # Hand the case to someone else: capture exactly what the diagnosis reads, redacted
  # (see kubectl why-pending capture --help), and diagnose it anywhere without cluster access
  kubectl why-pending capture web-0 -n shop -f case.tar.gz
  kubectl why-pending web-0 -n shop --from-dump case.tar.gz

  # The same, saved by an ordinary diagnosis of what it read
  kubectl why-pending web-0 -n shop --save case.tar.gz

  # Or from plain kubectl output (one file per kind, so that a kind the cluster has none
  # of is known to be captured; names and environment values stay in these files)
  mkdir case && for r in nodes pods events pvc pv storageclasses csinodes replicasets \
      deployments statefulsets daemonsets jobs cronjobs limitranges resourcequotas priorityclasses poddisruptionbudgets \
      resourceclaims deviceclasses resourceslices devicetaintrules podgroups namespaces; do
    kubectl get "$r" -A -o yaml > "case/$r.yaml"; done
  kubectl version -o json > case/version.json   # the release whose rules are replayed
  kubectl why-pending web-0 -n shop --from-dump case

  # For AI assistants: a Model Context Protocol server on stdio (see README)
  kubectl why-pending mcp --context prod

  # Every pending pod, grouped by cause (a namespace, all of them, or those a selector picks)
  kubectl why-pending -n shop
  kubectl why-pending -A
  kubectl why-pending -A -l app=web

  # Machine-readable diagnosis
  kubectl why-pending web-0 -n shop --from-dump case -o json

  # Shell completion for kubectl-why_pending typed directly (kubectl 1.26+ completes
  # \`kubectl why-pending\` through kubectl_complete-why_pending on PATH)
  source <(kubectl-why_pending completion bash)     # or: zsh, fish

Exit codes: 0 diagnosis printed, 1 internal error, 2 usage error, 3 unreadable input,
4 pod or owner not found, 5 cluster unreachable or access denied, 6 Node.js too old.`;

/** What a diagnosis and a capture select alike: a name, or a namespace, every one, a selector. */
function withSelection(name: string, version: string): Command {
  return new Command(name)
    .version(version, '--version', 'print the version and exit')
    .argument('[name]', 'pod name, or an owner as kind/name (deploy/web, rs/web-7d9, sts/db, ds/agent, job/x, cronjob/y); none: every pending pod of the namespace, grouped by cause')
    .option('-n, --namespace <namespace>', 'namespace of the pod (default: the context\'s namespace, or "default")')
    .option('-A, --all-namespaces', 'without a name: every pending pod in every namespace, grouped by cause')
    .option('-l, --selector <selector>', 'without a name: only pending pods whose labels match (k=v, k!=v, k in (a,b), !k)');
}

export function buildProgram(version: string): Command {
  const program = withSelection('kubectl why-pending', version)
    .description('Explain, node by node, why a Pod is stuck in Pending.')
    .option('-w, --watch', 'keep watching (WATCH requests, read-only): print what changes, exit 0 once the pod runs (or nothing is pending)')
    .option('--from-dump <path>', "read a capture or a dump (kubectl get ... -o yaml|json, a directory, a .tar.gz, or '-' for stdin) instead of a cluster")
    .option('--save <path>', 'also write a capture of what this run read (a new folder, or FILE.tar.gz), as kubectl why-pending capture does')
    .option('--redact-names', 'with --save: replace namespace, pod, owner and node names by stable pseudonyms')
    .addOption(new Option('-o, --output <format>', 'output format').choices(outputs).default('human' satisfies Output))
    .addOption(new Option('--color <when>', 'colour the output').choices(['auto', 'always', 'never']).default('auto'))
    .addHelpText('after', examples)
    .showSuggestionAfterError(true)
    .allowExcessArguments(false)
    .exitOverride();
  return addLiveOptions(program);
}

const captureExamples = `
A capture holds what a diagnosis (or, without a name, a triage) of the same selection reads,
through the same reads, and a manifest (manifest.json, schema/capture.v1.json): the tool's and
the server's versions, the time, and for every collection how it was read and whether it was
complete, partial or refused (with the permission missing). Only the fields the diagnosis reads
are written: no environment values, command lines, probes, images, Secrets, ConfigMap data or
annotations other than those it reads. Labels, taints and tolerations stay as they are.

Examples:
  # Capture what diagnosing web-0 reads, as one file to attach to a ticket
  kubectl why-pending capture web-0 -n shop -f case.tar.gz

  # Anyone can then diagnose it, anywhere, without cluster access: the same answer
  kubectl why-pending web-0 -n shop --from-dump case.tar.gz

  # Every pending pod of a namespace, with names replaced by stable pseudonyms
  # (the capture prints the pod names to diagnose it by)
  kubectl why-pending capture -n shop -f case --redact-names

  # A dump taken with kubectl get (environment values and all), redacted before it is shared
  kubectl why-pending capture web-0 -n shop --from-dump dump-dir -f case.tar.gz

Exit codes: 0 capture written, 1 internal error, 2 usage error (the path exists), 3 cannot
write, 4 pod or owner not found (what was read is still written), 5 cluster unreachable or
access denied.`;

/** `kubectl why-pending capture`: the selection of a diagnosis, and where the capture goes. */
export function buildCaptureProgram(version: string): Command {
  const program = withSelection('kubectl why-pending capture', version)
    .description('Write what a diagnosis of the selection reads, redacted, to share it.')
    .requiredOption('-f, --filename <path>', "where to write it: a new folder, FILE.tar.gz (never overwritten), or '-' for a .tar.gz on standard output")
    .option('--redact-names', 'replace namespace, pod, owner and node names by stable pseudonyms')
    .option('--from-dump <path>', 'capture from a dump (or a capture) instead of a cluster: what a diagnosis of it reads, redacted')
    .addHelpText('after', captureExamples)
    .showSuggestionAfterError(true)
    .allowExcessArguments(false)
    .exitOverride();
  return addLiveOptions(program);
}
