// The oldest Node.js we run on, checked before anything else is loaded: the dependencies
// (client-node's HTTP stack) fail at import time on older versions, with a stack trace. This
// module imports nothing, so that it loads on any Node.js that reads ES modules.
const minimumNode = { major: 22, minor: 12 } as const;

/** The one-line error for a Node.js older than minimumNode; undefined when `version` will do. */
export function checkNodeVersion(version: string): string | undefined {
  const match = /^v?(\d+)\.(\d+)/.exec(version.trim());
  const major = Number(match?.[1] ?? 0);
  const minor = Number(match?.[2] ?? 0);
  if (match && (major > minimumNode.major || (major === minimumNode.major && minor >= minimumNode.minor))) return undefined;
  const wanted = `${minimumNode.major}.${minimumNode.minor}`;
  return `kubectl why-pending needs Node.js ${wanted} or newer, found ${version}; install a current Node.js LTS (https://nodejs.org) and make it the first node on PATH`;
}
