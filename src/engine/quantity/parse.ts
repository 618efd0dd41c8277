// Parses Kubernetes quantity strings exactly, following the grammar documented on
// k8s.io/apimachinery/pkg/api/resource.Quantity:
//
//   <quantity>        ::= <signedNumber><suffix>
//   <number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
//   <signedNumber>    ::= <number> | <sign><number>
//   <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI>
//   <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei
//   <decimalSI>       ::= n | u | m | "" | k | M | G | T | P | E
//   <decimalExponent> ::= "e" <signedInteger> | "E" <signedInteger>   (int32, as upstream)
//
// Deliberately stricter than upstream's scanner, which also accepts strings with no
// digits ("Ki", "m", "-", ".", "e5") as zero: those are outside the documented grammar
// and are almost certainly typos, so they are reported rather than silently read as 0.
import { fromNanos, type Quantity } from './quantity.js';

/** Why a quantity does not parse, as data; src/messages/errors.ts words it. */
export type QuantityProblem =
  | { kind: 'empty' }
  | { kind: 'whitespace' }
  | { kind: 'noNumber' }
  | { kind: 'exponentOutOfRange'; exponent: string }
  | { kind: 'tooLarge' }
  | { kind: 'twoDecimalPoints' }
  | { kind: 'exponentWithoutDigits'; suffix: string }
  | { kind: 'unknownSuffix'; suffix: string };

export class QuantityError extends Error {
  override readonly name = 'QuantityError';

  constructor(
    readonly input: string,
    readonly problem: QuantityProblem,
  ) {
    // The words are the CLI's (messages/errors.ts); this is the problem's code, on one line.
    super(`${JSON.stringify(input)}: ${problem.kind}`);
  }
}

// Maps, not object literals, so a suffix like "constructor" can't hit Object.prototype.
const DECIMAL_SI = new Map<string, number>([
  ['n', -9], ['u', -6], ['m', -3], ['', 0], ['k', 3], ['M', 6], ['G', 9], ['T', 12], ['P', 15], ['E', 18],
]);
const BINARY_SI = new Map<string, bigint>([
  ['Ki', 10n], ['Mi', 20n], ['Gi', 30n], ['Ti', 40n], ['Pi', 50n], ['Ei', 60n],
]);

const NUMBER = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/s;
const EXPONENT = /^[eE]([+-]?[0-9]+)$/;
const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

// Upstream silently caps a binary-suffixed quantity's magnitude at 2^63-1 ("8Ei" parses
// as 9223372036854775807); kept so totals match what the API server stored.
const MAX_BINARY_NANOS = (2n ** 63n - 1n) * 1_000_000_000n;

// Upstream keeps the exponent unexpanded, so "1e2147483647" is legal there. Expanding it
// exactly would need gigabytes, so results past 10^1000 nano-units (far beyond any int64
// the scheduler could hold) are rejected instead of hanging the CLI.
const MAX_POWER_OF_TEN = 1000;

export function parseQuantity(text: string): Quantity {
  const fail = (problem: QuantityProblem): never => {
    throw new QuantityError(text, problem);
  };
  if (text.length === 0) fail({ kind: 'empty' });
  if (/\s/.test(text)) fail({ kind: 'whitespace' });

  const match = NUMBER.exec(text);
  const sign = match?.[1] ?? '';
  const whole = match?.[2] ?? '';
  const fraction = match?.[3] ?? '';
  const suffix = match?.[4] ?? '';
  if (whole === '' && fraction === '') fail({ kind: 'noNumber' });

  const digits = BigInt(whole + fraction); // the number times 10^fraction.length
  let bits = 0n;
  let power = 9 - fraction.length; // power of ten that turns `digits` into nano-units
  const decimal = DECIMAL_SI.get(suffix);
  const binary = BINARY_SI.get(suffix);
  const exponent = EXPONENT.exec(suffix)?.[1];
  if (decimal !== undefined) power += decimal;
  else if (binary !== undefined) bits = binary;
  else if (exponent !== undefined) {
    const e = BigInt(exponent);
    if (e < INT32_MIN || e > INT32_MAX) fail({ kind: 'exponentOutOfRange', exponent });
    power += Number(e);
  } else fail(suffixProblem(suffix));

  if (power > MAX_POWER_OF_TEN) fail({ kind: 'tooLarge' });
  let nanos = roundUpToNano(digits << bits, power);
  if (binary !== undefined && nanos > MAX_BINARY_NANOS) nanos = MAX_BINARY_NANOS;
  return fromNanos(sign === '-' ? -nanos : nanos);
}

// magnitude * 10^power, rounded up to a whole nano-unit as upstream does
// (inf.RoundUp at scale 9: "you asked for some, you get some", so 0.1n becomes 1n).
function roundUpToNano(magnitude: bigint, power: number): bigint {
  if (power >= 0) return magnitude * 10n ** BigInt(power);
  if (magnitude === 0n) return 0n;
  // magnitude < 10^digitCount, so dividing by a larger power leaves a non-zero fraction of one.
  if (-power > magnitude.toString().length) return 1n;
  const divisor = 10n ** BigInt(-power);
  const quotient = magnitude / divisor;
  return magnitude % divisor === 0n ? quotient : quotient + 1n;
}

function suffixProblem(suffix: string): QuantityProblem {
  if (suffix.startsWith('.')) return { kind: 'twoDecimalPoints' };
  if (/^[eE][+-]?$/.test(suffix)) return { kind: 'exponentWithoutDigits', suffix };
  return { kind: 'unknownSuffix', suffix };
}
