// Which release's scheduler the replay followed (engine/release.ts), in one line: said once, in
// the stages where the filters were replayed.
import { minorOf, newestMinor, oldestMinor, type ClusterRelease } from '../engine/release.js';

export function releaseLine(cluster: ClusterRelease): string {
  const rules = `Checked against the filters of kube-scheduler ${cluster.rulesOf}`;
  if (cluster.version === undefined) {
    return `${rules}, the newest release modelled: the input does not say the cluster's version (for a dump, add the output of \`kubectl version -o json\`).`;
  }
  if (cluster.assumed) return `${rules}, the newest release modelled: the cluster's version ${cluster.version} does not read as a 1.x release.`;
  const minor = minorOf(cluster.version);
  if (minor !== undefined && minor > newestMinor) return `${rules}, the newest release modelled (the cluster runs ${cluster.version}).`;
  if (minor !== undefined && minor < oldestMinor) return `${rules}, the oldest release modelled (the cluster runs ${cluster.version}).`;
  return `${rules} (the cluster runs ${cluster.version}).`;
}
