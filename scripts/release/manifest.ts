// krew-manifest.yaml, written from package.json and the archives just built (name, version,
// release URLs, sha256, bin per platform). The plugin is named why-pending: krew links it as
// kubectl-why_pending, which kubectl runs as `kubectl why-pending`.
import { stringify } from 'yaml';
import type { Platform } from './platforms.js';

export interface BuiltArchive {
  platform: Platform;
  file: string;
  sha256: string;
  bin: string;
  completion: string;
}

export interface PackageInfo {
  version: string;
  homepage: string;
  /** Where the archives are published: `<repository>/releases/download/v<version>/<file>`. */
  repository: string;
}

const pluginName = 'why-pending';

// `kubectl krew search` cuts descriptions at 50 characters.
const shortDescription = 'Explain why a Pod is Pending, node by node';

const description = `Replays kube-scheduler's filter plugins on every node and says why each one
was ruled out: untolerated taints and selector mismatches shown character by
character, the cpu and memory arithmetic with each node's shortfall, volume,
topology and affinity constraints, and the scheduler's own message cross-checked.
Also explains pods never handed to a scheduler (scheduling gates, an unknown
schedulerName) and pods rejected at admission (quota, LimitRange). Read-only;
works on a live cluster or on a dump (kubectl get -o yaml) someone shared.
A single executable: no Node.js needed.
`;

const caveats = `Needs get/list on pods, events and nodes (and volumes, for pods with claims);
with less it gives a partial diagnosis and names the missing permission.

Shell completion of pod names (kubectl 1.26+): copy the completion helper
next to the plugin, once per install or upgrade:
  cp "$(dirname "$(readlink -f "\${KREW_ROOT:-$HOME/.krew}/bin/kubectl-why_pending")")/kubectl_complete-why_pending" \\
     "\${KREW_ROOT:-$HOME/.krew}/bin/"
`;

export function krewManifest(pkg: PackageInfo, archives: readonly BuiltArchive[]): string {
  const tag = `v${pkg.version}`;
  const manifest = {
    apiVersion: 'krew.googlecontainertools.github.com/v1alpha2',
    kind: 'Plugin',
    metadata: { name: pluginName },
    spec: {
      version: tag,
      homepage: pkg.homepage,
      shortDescription,
      description,
      caveats,
      platforms: archives.map((a) => ({
        selector: { matchLabels: { os: a.platform.os, arch: a.platform.arch } },
        uri: `${pkg.repository}/releases/download/${tag}/${a.file}`,
        sha256: a.sha256,
        files: [a.bin, a.completion, 'LICENSE'].map((f) => ({ from: f, to: '.' })),
        bin: a.bin,
      })),
    },
  };
  return `# Written by \`npm run release\` (scripts/release/manifest.ts) from package.json and the archives
# in release/: edit those, not this file.\n${stringify(manifest, { lineWidth: 0 })}`;
}
