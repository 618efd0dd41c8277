// Errors that reach the user. Each carries one line: what failed, why, what to do. The CLI
// maps each class to its exit code (src/cli/exit-codes.ts); anything else is a bug.
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Input we cannot read: a missing or malformed dump, a quantity that does not parse. */
export class InputError extends Error {
  override name = 'InputError';
}

/** The cluster could not be reached, or refused us: connection, TLS, 401, timeouts. */
export class ClusterError extends Error {
  override name = 'ClusterError';
}
