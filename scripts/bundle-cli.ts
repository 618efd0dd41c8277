// `npm run build`'s second step: the CLI as one CommonJS file, dist/kubectl-why_pending.cjs,
// which bin/kubectl-why_pending runs through dist/cli/launch.js with V8's code cache
// (src/cli/codeCache.ts). @kubernetes/client-node stays outside (loaded from node_modules by the
// few live reads that need it, sources/live/kubeconfig.ts): bundled, it is 16 of 20 MB.
// Not minified: the code cache makes parsing cheap, and names stay readable in a stack trace.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bundle } from './release/bundle.js';

const root = path.resolve(import.meta.dirname, '..');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
await bundle(path.join(root, 'src', 'cli', 'bundle.ts'), path.join(root, 'dist', 'kubectl-why_pending.cjs'), version, { external: ['@kubernetes/client-node'], minify: false });
