// README's k9s plugin entry against k9s' own plugin schema, taken from its Go module (the Go
// module proxy, as krew is: tools.ts): a missing shortCut, description, scope or command, or a
// field of the wrong type, fails here before it fails in a user's k9s.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../../cli/run.js';
import { go } from './tools.js';

const k9sVersion = 'v0.50.16';

/** k9s' plugins schema (draft-07), from the module cache, downloaded once. */
function k9sPluginSchema(): object {
  const info = JSON.parse(execFileSync(go(), ['mod', 'download', '-json', `github.com/derailed/k9s@${k9sVersion}`], { encoding: 'utf8', cwd: repoRoot })) as { Dir: string };
  return JSON.parse(readFileSync(path.join(info.Dir, 'internal', 'config', 'json', 'schemas', 'plugins.json'), 'utf8')) as object;
}

/** The YAML block of README's "k9s" section. */
function readmePlugins(): { plugins: Record<string, { scopes: string[]; command: string; args: string[]; shortCut: string }> } {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## k9s\n'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README has no k9s plugin block');
  return parse(block) as ReturnType<typeof readmePlugins>;
}

describe("README's k9s plugin", () => {
  it("validates against k9s' plugin schema", () => {
    const validate = new Ajv({ strict: false }).compile(k9sPluginSchema());
    const plugins = readmePlugins();
    expect(validate(plugins), JSON.stringify(validate.errors)).toBe(true);
    // The schema is strict enough to fail: an entry without its scopes does not validate.
    const { scopes: _scopes, ...withoutScopes } = plugins.plugins['why-pending'] ?? { scopes: [] };
    expect(validate({ plugins: { x: withoutScopes } })).toBe(false);
  });

  it('runs kubectl why-pending on the selected pod, and triages the selected namespace', () => {
    const { plugins } = readmePlugins();
    const pod = plugins['why-pending'];
    const ns = plugins['why-pending-namespace'];
    expect(pod?.scopes).toEqual(['pods']);
    expect(pod?.args.join(' ')).toContain('kubectl why-pending $NAME -n $NAMESPACE --context $CONTEXT');
    expect(ns?.scopes).toEqual(['namespaces']);
    expect(ns?.args.join(' ')).toContain('kubectl why-pending -n $NAME --context $CONTEXT');
  });
});
