// Errors that reach the user. Each carries one line: what failed, why, what to do. The CLI
// maps each class to its exit code (src/cli/exit-codes.ts); anything else is a bug.
import type { QuantityError } from './engine/quantity/index.js';
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Input we cannot read: a missing or malformed dump, a quantity that does not parse. */
export class InputError extends Error {
  override name = 'InputError';
}

/** Where a quantity that does not parse sits: `pod shop/web-0 resources`. */
export interface QuantityPlace {
  kind: 'Pod' | 'Node';
  name: string;
  field: string;
}

/** A quantity in the input that does not parse; the CLI words it (messages/errors.ts). */
export class UnreadableQuantity extends InputError {
  override name = 'UnreadableQuantity';

  constructor(
    readonly place: QuantityPlace,
    readonly quantity: QuantityError,
  ) {
    super(`${place.kind} ${place.name} ${place.field}: ${quantity.message}`);
  }
}

/** The cluster could not be reached, or refused us: connection, TLS, 401, timeouts. */
export class ClusterError extends Error {
  override name = 'ClusterError';
}
