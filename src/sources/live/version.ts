// The cluster's version, for the release whose rules the engine replays (engine/release.ts):
// one GET of `/version` (kube-apiserver's version.Info; every authenticated user may read it,
// system:public-info-viewer). A refusal, a 404 or any other failure leaves the version unknown:
// the engine then replays the newest release and says so; reading goes on.
import type { Snapshot } from '../../snapshot/types.js';
import type { Transport } from './transport.js';

export async function readClusterVersion(transport: Transport): Promise<NonNullable<Snapshot['cluster']>> {
  try {
    const info = await transport.get({ path: '/version', what: 'reading the cluster version' });
    const gitVersion = typeof info === 'object' && info !== null ? (info as { gitVersion?: unknown }).gitVersion : undefined;
    return typeof gitVersion === 'string' && gitVersion !== '' ? { version: gitVersion } : {};
  } catch {
    // Unknown is an answer here; a cluster that cannot be reached fails the other reads.
    return {};
  }
}
