// The libraries weighed against the hand-written parts, installed outside the project (in a
// cache prefix, never in package.json or node_modules) at pinned versions, so that the figures
// are of a known release and the project's dependencies stay what they are. The children load
// them from there by absolute path (createRequire); @kubernetes/client-node, a dependency
// already, comes from the project's node_modules.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export const pinnedLibraries: Readonly<Record<string, string>> = {
  'stream-json': '3.9.0',
  protobufjs: '8.8.1',
  undici: '8.14.0',
  tar: '8.0.4',
  'https-proxy-agent': '9.1.0',
};

function installedVersion(modules: string, name: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path.join(modules, name, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * The prefix's node_modules folder (with a trailing slash, as createRequire wants it), after
 * installing what is missing or at another version.
 */
export function ensureLibraries(prefix = path.join(homedir(), '.cache', 'why-pending', 'libbench')): string {
  const modules = path.join(prefix, 'node_modules');
  const missing = Object.entries(pinnedLibraries).filter(([name, version]) => installedVersion(modules, name) !== version);
  if (missing.length > 0) {
    mkdirSync(prefix, { recursive: true });
    const specs = Object.entries(pinnedLibraries).map(([name, version]) => `${name}@${version}`);
    console.error(`installing ${specs.join(' ')} into ${prefix}`);
    execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', ...specs], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return `${modules}${path.sep}`;
}
