// Shell completion: the __complete protocol kubectl speaks with kubectl_complete-why_pending
// (k8s.io/kubectl/pkg/cmd/plugin/plugin_completion.go), the live names it offers, and the
// scripts of `completion bash|zsh|fish`.
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { complete, directives, formatCompletion, type Lookups } from '../../src/cli/completion.js';
import { liveLookups } from '../../src/cli/completion-live.js';
import { buildProgram } from '../../src/cli/options.js';
import { json, list, startFakeApiServer, type FakeApiServer } from '../unit/live/fake-apiserver.js';
import { cliMain, repoRoot, runCli } from '../cli/run.js';

const seen: Record<string, unknown>[] = [];
const fakeLookups: Lookups = {
  namespaces: async (opts) => (seen.push(opts), ['default', 'kube-system', 'shop']),
  pendingPods: async (opts) => (seen.push(opts), ['web-0', 'web-1', 'worker-7']),
};

const values = async (...args: string[]) => {
  const result = await complete(buildProgram('0.0.0'), args, fakeLookups);
  return { values: result.candidates.map((c) => c.value), directive: result.directive };
};
const { noFileComp } = directives;

describe('__complete', () => {
  it.each([
    { name: 'a new word offers the Pending pods', args: [''], values: ['web-0', 'web-1', 'worker-7'], directive: noFileComp },
    { name: 'a prefix narrows the pods', args: ['web'], values: ['web-0', 'web-1'], directive: noFileComp },
    { name: 'one pod per run: nothing after the name', args: ['web-0', ''], values: [], directive: noFileComp },
    { name: '-n offers namespaces', args: ['-n', 's'], values: ['shop'], directive: noFileComp },
    { name: '--namespace= offers namespaces with the flag', args: ['--namespace=k'], values: ['--namespace=kube-system'], directive: noFileComp },
    { name: '-o offers the output formats', args: ['-o', ''], values: ['human', 'wide', 'json', 'yaml', 'markdown'], directive: noFileComp },
    { name: '--color= offers its choices', args: ['--color=a'], values: ['--color=auto', '--color=always'], directive: noFileComp },
    { name: '--from-dump lets the shell complete files', args: ['--from-dump', ''], values: [], directive: directives.default },
    { name: '--kubeconfig lets the shell complete files', args: ['--kubeconfig', 'ho'], values: [], directive: directives.default },
    { name: 'a dump has no live pod names', args: ['--from-dump', 'case', ''], values: [], directive: noFileComp },
    { name: 'long flags by prefix', args: ['--cl'], values: ['--cluster', '--client-certificate', '--client-key'], directive: noFileComp },
    { name: 'a flag already given is not offered again', args: ['--namespace', 'shop', '--names'], values: [], directive: noFileComp },
    { name: 'a repeatable flag is', args: ['--as-group', 'a', '--as-g'], values: ['--as-group'], directive: noFileComp },
    { name: 'completion offers the shells', args: ['completion', ''], values: ['bash', 'zsh', 'fish'], directive: noFileComp },
    { name: 'after --, words are positionals', args: ['--', '-x', ''], values: [], directive: noFileComp },
  ])('$name', async ({ args, values: expected, directive }) => {
    expect(await values(...args)).toEqual({ values: expected, directive });
  });

  it('"-" lists short flags with the long ones, each with its help', async () => {
    const result = await complete(buildProgram('0.0.0'), ['-'], fakeLookups);
    const flags = result.candidates.map((c) => c.value);
    expect(flags).toEqual(expect.arrayContaining(['-n', '--namespace', '-o', '--output', '-s', '--server', '--help', '--version']));
    expect(result.candidates.find((c) => c.value === '-n')?.description).toMatch(/namespace of the pod/);
  });

  it('passes the connection flags typed so far to the lookups', async () => {
    seen.length = 0;
    await values('--context', 'prod', '-nshop', '--as-group', 'a', '--as-group', 'b', '--insecure-skip-tls-verify', '');
    expect(seen).toEqual([{ context: 'prod', namespace: 'shop', asGroup: ['a', 'b'], insecureSkipTlsVerify: true }]);
  });

  it('writes one candidate a line, a tab before the description, the directive last', () => {
    const text = formatCompletion({ candidates: [{ value: 'web-0', description: 'Pending\tpod' }, { value: 'x\ny' }], directive: 4 });
    expect(text).toBe('web-0\tPending pod\nx y\n:4\n');
  });
});

describe('the names read from a cluster', () => {
  let server: FakeApiServer | undefined;
  afterEach(async () => server?.close());

  it('are one LIST of the Pending pods of the namespace, names sorted', async () => {
    server = await startFakeApiServer({
      '/api/v1/namespaces/shop/pods': list([{ metadata: { name: 'web-1' } }, { metadata: { name: 'web-0' } }]),
      '/api/v1/namespaces': list([{ metadata: { name: 'shop' } }]),
    });
    const opts = { server: server.url, token: 'secret', namespace: 'shop' };
    expect(await liveLookups.pendingPods(opts)).toEqual(['web-0', 'web-1']);
    expect(await liveLookups.namespaces(opts)).toEqual(['shop']);
    expect(server.requests.map((r) => [r.method, r.path, r.query.get('fieldSelector')])).toEqual([
      ['GET', '/api/v1/namespaces/shop/pods', 'status.phase=Pending'],
      ['GET', '/api/v1/namespaces', null],
    ]);
  });

  it('are none, quickly, when the server refuses, fails or hangs', async () => {
    server = await startFakeApiServer({
      '/api/v1/namespaces/denied/pods': (_req, res) => json(res, 403, { kind: 'Status', code: 403, reason: 'Forbidden' }),
      '/api/v1/namespaces/hangs/pods': () => undefined,
    });
    const started = Date.now();
    for (const namespace of ['denied', 'hangs']) expect(await liveLookups.pendingPods({ server: server.url, token: 't', namespace })).toEqual([]);
    expect(await liveLookups.pendingPods({ server: 'http://127.0.0.1:1', token: 't' })).toEqual([]);
    expect(await liveLookups.pendingPods({ kubeconfig: '/nonexistent/kubeconfig' })).toEqual([]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('the executables', () => {
  it('offers the capture subcommand beside the pods its prefix matches', async () => {
    expect(await values('c')).toEqual({ values: ['capture'], directive: noFileComp });
    expect((await values('')).values).not.toContain('capture');
  });

  it('completes capture against its own flags', () => {
    const flags = runCli(['__complete', 'capture', '--']).stdout.split('\n');
    expect(flags).toEqual(expect.arrayContaining(["--filename\twhere to write it: a new folder, FILE.tar.gz (never overwritten), or '-' for a .tar.gz on standard output", '--redact-names\treplace namespace, pod, owner and node names by stable pseudonyms']));
    expect(flags.some((f) => f.startsWith('--output'))).toBe(false);
    expect(runCli(['__complete', 'capture', '-f', '']).stdout).toBe(':0\n');
  });

  it('__complete prints the protocol and nothing on stderr, even unable to reach a cluster', () => {
    const run = runCli(['__complete', '--kubeconfig', '/nonexistent', '']);
    expect(run).toMatchObject({ code: 0, stdout: ':4\n', stderr: '' });
  });

  it('kubectl_complete-why_pending answers for the plugin beside it', () => {
    const run = spawnSync(`${repoRoot}/bin/kubectl_complete-why_pending`, ['--output=y'], { encoding: 'utf8' });
    expect(run.stdout).toBe('--output=yaml\n:4\n');
  });
});

describe('completion bash|zsh|fish', () => {
  it.each(['bash', 'zsh', 'fish'])('%s: a script that asks kubectl-why_pending __complete', (shell) => {
    const run = runCli(['completion', shell]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('kubectl-why_pending __complete');
    expect(run.stdout).toMatch(shell === 'fish' ? /^complete -c kubectl-why_pending /m : /^(complete|compdef) .*kubectl-why_pending$/m);
  });

  // Typing `kubectl-why_pending --output=j<TAB>` in bash: the script reads the line as the
  // program does (bash itself splits the word at "=") and answers for bash's current word.
  it.each([
    { line: 'kubectl-why_pending --output=j', words: ['kubectl-why_pending', '--output', '=', 'j'], reply: ['json'] },
    { line: 'kubectl-why_pending -o ', words: ['kubectl-why_pending', '-o', ''], reply: ['human', 'wide', 'json', 'yaml', 'markdown'] },
    { line: 'kubectl-why_pending --from-d', words: ['kubectl-why_pending', '--from-d'], reply: ['--from-dump'] },
  ])('bash completes "$line"', ({ line, words, reply }) => {
    const script = runCli(['completion', 'bash']).stdout;
    const program = `
      kubectl-why_pending() { "${process.execPath}" "${cliMain}" "$@"; }
      compopt() { :; }
      ${script}
      COMP_LINE='${line}'; COMP_POINT=\${#COMP_LINE}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
      _kubectl_why_pending
      printf '%s\\n' "\${COMPREPLY[@]}"`;
    const run = spawnSync('bash', ['-c', program], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n').filter(Boolean)).toEqual(reply);
  });

  const installed = (shell: string) => !spawnSync(shell, ['--version']).error;
  it.skipIf(!installed('zsh'))('zsh parses its script', () => checkSyntax('zsh'));
  it.skipIf(!installed('fish'))('fish completes values, flags and files', () => {
    const program = `
      function kubectl-why_pending; "${process.execPath}" "${cliMain}" $argv; end
      ${runCli(['completion', 'fish']).stdout}
      complete -C 'kubectl-why_pending -o '; complete -C 'kubectl-why_pending --output=j'; complete -C 'kubectl-why_pending --from-dump exa'`;
    const run = spawnSync('fish', ['-c', program], { encoding: 'utf8', cwd: repoRoot });
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n').filter(Boolean)).toEqual(['human', 'json', 'wide', 'yaml', '--output=json', 'examples/']);
  });
  function checkSyntax(shell: string) {
    const run = spawnSync(shell, ['-n'], { input: runCli(['completion', shell]).stdout, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  }
});
