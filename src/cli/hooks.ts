// The bundle's side of its loader (codeCache.ts): the launcher hands its hooks to the bundle's
// entry (bundle.ts), and the run says here what it did. Run without the launcher (dist/cli/main.js
// directly, or the tests), nobody listens.
import type { LaunchHooks } from './codeCache.js';

export const launchHooks: LaunchHooks = { covered: () => undefined };
