// Where slow downloads and builds are kept between runs, like the test control plane's.
import os from 'node:os';
import path from 'node:path';

export function cacheRoot(): string {
  return process.env['WHY_PENDING_CACHE'] ?? path.join(os.homedir(), '.cache', 'why-pending');
}
