// The words for errors the engine reports as data: a name on the command line that names
// nothing, and a quantity that does not parse. The CLI prints them as its one line.
import type { QuantityProblem } from '../engine/quantity/parse.js';
import type { QueryProblem } from '../engine/target.js';
import type { UnreadableQuantity } from '../errors.js';

export function describeQueryProblem(problem: QueryProblem): string {
  switch (problem.kind) {
    case 'unknownResourceType':
      return `unknown resource type "${problem.type}": use a pod name or one of deploy/, rs/, sts/, ds/, job/, cronjob/`;
    case 'noName':
      return `"${problem.text}" names no object`;
  }
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

export function describeUnreadableQuantity(error: UnreadableQuantity): string {
  const { kind, name, field } = error.place;
  return `${kind === 'Pod' ? 'pod' : 'node'} ${name} ${field}: ${describeQuantityProblem(error.quantity.input, error.quantity.problem)}`;
}
