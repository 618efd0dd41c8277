// The words for errors the engine reports as data: a name on the command line that names
// nothing, and a quantity that does not parse. The CLI prints them as its one line.
import { QuantityError } from '../engine/quantity/index.js';
import type { QuantityProblem } from '../engine/quantity/parse.js';
import type { Outcome } from '../engine/diagnose.js';
import { QueryError, type QueryProblem } from '../engine/target.js';
import { UnreadableQuantity } from '../errors.js';
import { list } from './format.js';

function describeQueryProblem(problem: QueryProblem): string {
  switch (problem.kind) {
    case 'unknownResourceType':
      return `unknown resource type "${problem.type}": use a pod name or one of deploy/, rs/, sts/, ds/, job/, cronjob/`;
    case 'noName':
      return `"${problem.text}" names no object`;
  }
}

/** Namespaces named in a not-found line; the rest are counted. */
const namedNamespaces = 3;

/**
 * `pod "web-0" not found in namespace "default" (<source>); it exists in namespace "shop": add
 * -n shop`. The other namespaces holding the name come first: the name was right, the namespace
 * was not. Otherwise the names like it, with the kind as typed (`deploy/web`).
 */
export function describeNotFound(outcome: Extract<Outcome, { kind: 'notFound' }>, source: string): string {
  const { query, what, suggestions, elsewhere } = outcome;
  const head = `${what} "${query.name}" not found in namespace "${query.namespace}" (${source})`;
  if (elsewhere.length > 0) {
    const shown = elsewhere.slice(0, namedNamespaces);
    const more = elsewhere.length - shown.length;
    const names = list([...shown.map((n) => `"${n}"`), ...(more > 0 ? [`${more} more`] : [])]);
    const flags = list(shown.map((n) => `-n ${n}`), 'or');
    return `${head}; it exists in namespace${elsewhere.length > 1 ? 's' : ''} ${names}: add ${flags}`;
  }
  if (suggestions.length === 0) return head;
  const slash = query.name.indexOf('/');
  const typed = slash === -1 ? '' : query.name.slice(0, slash + 1);
  return `${head}; did you mean ${suggestions.map((s) => `${typed}${s}`).join(', ')}?`;
}

function why(problem: QuantityProblem): string {
  switch (problem.kind) {
    case 'empty':
      return 'it is empty';
    case 'whitespace':
      return 'it contains whitespace';
    case 'noNumber':
      return 'expected a number such as 1, 0.5 or .5 before any suffix';
    case 'exponentOutOfRange':
      return `exponent ${problem.exponent} is outside the 32-bit range`;
    case 'tooLarge':
      return 'it is too large to evaluate exactly';
    case 'twoDecimalPoints':
      return 'it has more than one decimal point';
    case 'exponentWithoutDigits':
      return `the exponent ${JSON.stringify(problem.suffix)} has no digits`;
    case 'unknownSuffix':
      return `unknown suffix ${JSON.stringify(problem.suffix)}; expected one of n u m k M G T P E, Ki Mi Gi Ti Pi Ei, or e/E followed by an integer exponent`;
  }
}

/** `quantity "lots" is not valid: ...`; JSON quoting keeps it on one line whatever the input. */
export function describeQuantityProblem(input: string, problem: QuantityProblem): string {
  return `quantity ${JSON.stringify(input)} is not valid: ${why(problem)}`;
}

function describeUnreadableQuantity(error: UnreadableQuantity): string {
  const { kind, name, field } = error.place;
  return `${kind === 'Pod' ? 'pod' : 'node'} ${name} ${field}: ${describeQuantityProblem(error.quantity.input, error.quantity.problem)}`;
}

/** The one line for an error; what the engine reports as data is worded here (the CLI, the MCP server). */
export function describeError(error: unknown): string {
  if (error instanceof QueryError) return describeQueryProblem(error.problem);
  if (error instanceof UnreadableQuantity) return describeUnreadableQuantity(error);
  if (error instanceof QuantityError) return describeQuantityProblem(error.input, error.problem);
  return error instanceof Error ? error.message : String(error);
}
