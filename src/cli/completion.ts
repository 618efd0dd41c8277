// What to offer for `kubectl why-pending ... <TAB>`, in cobra's `__complete` protocol, which
// kubectl (1.26+) speaks with a plugin's `kubectl_complete-<plugin>` executable
// (k8s.io/kubectl/pkg/cmd/plugin/plugin_completion.go): it runs the executable with the words
// typed after the plugin's name, the last one being the word under the cursor ("" for a new
// word), and reads one candidate a line ("value\tdescription"), then `:<directive>` last.
// The flags come from the program itself (options.ts), so completion never lists a flag the
// command does not take. Cluster names (namespaces, pending pods) come from `lookups`.
import type { Command, Option } from 'commander';

/** cobra's ShellCompDirective bits (spf13/cobra completions.go). */
export const directives = {
  /** Let the shell complete file names when no candidate fits. */
  default: 0,
  /** Never fall back to file names. */
  noFileComp: 4,
} as const;

export interface Candidate {
  value: string;
  description?: string;
}

export interface Completion {
  candidates: Candidate[];
  directive: number;
}

/** Names read from the cluster, with the flags typed so far (commander's attribute names). */
export interface Lookups {
  namespaces(opts: Record<string, unknown>): Promise<string[]>;
  pendingPods(opts: Record<string, unknown>): Promise<string[]>;
}

/** Options whose value is a file: the shell completes paths. */
const pathOptions = new Set(['fromDump', 'save', 'filename', 'kubeconfig', 'certificateAuthority', 'clientCertificate', 'clientKey']);

/** Options that may be given more than once, so are offered again. */
const repeatable = new Set(['asGroup']);

export const shells = ['bash', 'zsh', 'fish'] as const;

const takesValue = (option: Option): boolean => option.required || option.optional;

interface Typed {
  opts: Record<string, unknown>;
  positionals: string[];
  /** The option whose value is the word under the cursor (`-n <TAB>`). */
  awaiting?: Option;
}

function findOption(program: Command, flag: string): Option | undefined {
  return program.options.find((o) => o.long === flag || o.short === flag);
}

function set(typed: Typed, option: Option, value: unknown): void {
  const key = option.attributeName();
  typed.opts[key] = repeatable.has(key) ? [...((typed.opts[key] as string[] | undefined) ?? []), value] : value;
}

/** Reads the words before the cursor as commander would: flags, their values, positionals. */
function readTyped(program: Command, words: readonly string[]): Typed {
  const typed: Typed = { opts: {}, positionals: [] };
  let onlyPositionals = false;
  for (const word of words) {
    if (typed.awaiting) {
      set(typed, typed.awaiting, word);
      delete typed.awaiting;
    } else if (onlyPositionals || !word.startsWith('-') || word === '-') {
      typed.positionals.push(word);
    } else if (word === '--') {
      onlyPositionals = true;
    } else {
      const long = word.startsWith('--');
      const eq = word.indexOf('=');
      // --flag=value, -nvalue (commander reads both), or a flag alone.
      const flag = long ? (eq > 0 ? word.slice(0, eq) : word) : word.slice(0, 2);
      const inline = long ? (eq > 0 ? word.slice(eq + 1) : undefined) : word.length > 2 ? word.slice(2) : undefined;
      const option = findOption(program, flag);
      if (!option) continue;
      if (!takesValue(option)) set(typed, option, true);
      else if (inline !== undefined) set(typed, option, inline);
      else typed.awaiting = option;
    }
  }
  return typed;
}

const matching = (values: readonly string[], prefix: string, description?: string): Candidate[] =>
  values.filter((v) => v.startsWith(prefix)).map((value) => ({ value, ...(description ? { description } : {}) }));

async function valuesFor(option: Option, typed: Typed, prefix: string, lookups: Lookups): Promise<Completion> {
  const key = option.attributeName();
  if (pathOptions.has(key)) return { candidates: [], directive: directives.default };
  if (option.argChoices) return { candidates: matching(option.argChoices, prefix), directive: directives.noFileComp };
  if (key === 'namespace') return { candidates: matching(await lookups.namespaces(typed.opts), prefix), directive: directives.noFileComp };
  return { candidates: [], directive: directives.noFileComp };
}

function flagCandidates(program: Command, typed: Typed, prefix: string): Candidate[] {
  const candidates: Candidate[] = [];
  for (const option of program.options) {
    if (option.hidden || (option.attributeName() in typed.opts && !repeatable.has(option.attributeName()))) continue;
    for (const flag of [option.long, prefix === '-' ? option.short : undefined]) {
      if (flag?.startsWith(prefix)) candidates.push({ value: flag, description: option.description });
    }
  }
  if ('--help'.startsWith(prefix)) candidates.push({ value: '--help', description: 'show help and exit' });
  return candidates;
}

/** The candidates for the word under the cursor, `args`' last (kubectl passes "" for a new word). */
export async function complete(program: Command, args: readonly string[], lookups: Lookups): Promise<Completion> {
  const toComplete = args.at(-1) ?? '';
  const typed = readTyped(program, args.slice(0, -1));
  if (typed.awaiting) return valuesFor(typed.awaiting, typed, toComplete, lookups);

  const eq = toComplete.indexOf('=');
  if (toComplete.startsWith('--') && eq > 0) {
    const option = findOption(program, toComplete.slice(0, eq));
    if (!option || !takesValue(option)) return { candidates: [], directive: directives.noFileComp };
    const values = await valuesFor(option, typed, toComplete.slice(eq + 1), lookups);
    const flag = toComplete.slice(0, eq + 1);
    return { ...values, candidates: values.candidates.map((c) => ({ ...c, value: flag + c.value })) };
  }
  if (toComplete.startsWith('-')) return { candidates: flagCandidates(program, typed, toComplete), directive: directives.noFileComp };

  if (typed.positionals.length === 1 && typed.positionals[0] === 'completion') {
    return { candidates: matching(shells, toComplete, 'print the completion script for this shell'), directive: directives.noFileComp };
  }
  // The first word: a pending pod, or one of the subcommands.
  if (typed.positionals.length === 0 && typed.opts['fromDump'] === undefined && toComplete !== '' && 'capture'.startsWith(toComplete)) {
    const pods = matching(await lookups.pendingPods(typed.opts), toComplete, 'Pending pod');
    return { candidates: [...pods, { value: 'capture', description: 'write what a diagnosis reads, redacted, to share it' }], directive: directives.noFileComp };
  }
  // One pod (or owner) per run; a dump has no live names to offer.
  if (typed.positionals.length > 0 || typed.opts['fromDump'] !== undefined) return { candidates: [], directive: directives.noFileComp };
  return { candidates: matching(await lookups.pendingPods(typed.opts), toComplete, 'Pending pod'), directive: directives.noFileComp };
}

/** The protocol's text: one candidate a line, tabs and newlines kept out of values. */
export function formatCompletion(completion: Completion): string {
  const clean = (s: string) => s.replace(/[\t\r\n]+/g, ' ');
  const lines = completion.candidates.map((c) => (c.description ? `${clean(c.value)}\t${clean(c.description)}` : clean(c.value)));
  return [...lines, `:${completion.directive}`].join('\n') + '\n';
}
