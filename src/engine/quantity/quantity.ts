// A Kubernetes resource quantity, held as an exact whole number of nano-units.
//
// Why nano-units: upstream ParseQuantity rounds every value up (away from zero) to a
// multiple of 1n (10^-9), so after parsing every quantity IS an integer count of
// nano-units. One bigint therefore represents any parsed quantity exactly, and add,
// sub and compare are plain bigint operations with no scale alignment or float drift.
// The suffix/format upstream remembers is not kept: the scheduler only uses values.
export interface Quantity {
  readonly nanos: bigint;
}

const NANOS_PER_UNIT = 1_000_000_000n;
const NANOS_PER_MILLI = 1_000_000n;

export function fromNanos(nanos: bigint): Quantity {
  return { nanos };
}

export function fromMilli(milli: bigint): Quantity {
  return { nanos: milli * NANOS_PER_MILLI };
}

export function fromValue(value: bigint): Quantity {
  return { nanos: value * NANOS_PER_UNIT };
}

// Upstream's int64 path (int64Amount.AsScaledInt64, used for nearly every parsed
// quantity) rounds a dropped fraction away from zero: 0.1m -> 1m, -1.5 -> -2.
// (Its inf.Dec path uses ceiling, -1.5 -> -1; the two only differ for negative
// values, which never appear in valid requests, capacity or allocatable.)
function divRoundAwayFromZero(n: bigint, d: bigint): bigint {
  const q = n / d; // BigInt division truncates toward zero
  if (n % d === 0n) return q;
  return n < 0n ? q - 1n : q + 1n;
}

// MilliValue(): value in thousandths, rounded up. cpu amounts use this.
export function milliValue(q: Quantity): bigint {
  return divRoundAwayFromZero(q.nanos, NANOS_PER_MILLI);
}

// Value(): whole units, rounded up. memory, storage, pods and extended resources use this.
export function value(q: Quantity): bigint {
  return divRoundAwayFromZero(q.nanos, NANOS_PER_UNIT);
}

export function add(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos + b.nanos };
}

export function sub(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos - b.nanos };
}

// Same contract as upstream Cmp: -1, 0 or 1.
export function compare(a: Quantity, b: Quantity): -1 | 0 | 1 {
  if (a.nanos === b.nanos) return 0;
  return a.nanos < b.nanos ? -1 : 1;
}

export function isZero(q: Quantity): boolean {
  return q.nanos === 0n;
}
