// Exit codes, documented in the README. Scripts can tell "no answer" causes apart.
export const exitCodes = {
  ok: 0,
  internal: 1,
  usage: 2,
  input: 3,
  notFound: 4,
  cluster: 5,
  /** The environment cannot run us: a Node.js older than the one we need. */
  environment: 6,
} as const;
