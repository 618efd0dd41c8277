// npm run compare-builds -- <git-ref> [--keep]
// Behaviour unchanged, checked: builds <git-ref> in a temporary worktree (node_modules shared
// with this checkout) and runs every scenario folder (test/scenarios, test/triage-scenarios)
// through that build and this one's dist/, in every output format, colour on and off, then
// prints each output that differs (stdout, stderr and exit code). Exit 0 when none does, 1
// otherwise. For a refactor that must not change what a user sees.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';

const repo = path.resolve(import.meta.dirname, '..');
const { positionals, values } = parseArgs({ allowPositionals: true, options: { keep: { type: 'boolean', default: false } } });
const ref = positionals[0];
if (!ref) {
  process.stderr.write('usage: npm run compare-builds -- <git-ref> [--keep]\n');
  process.exit(2);
}
const formats: string[][] = [['-o', 'json'], ['-o', 'yaml'], ['-o', 'markdown'], ['-o', 'wide'], ['-o', 'wide', '--color=always'], [], ['--color=always']];

interface Run {
  stdout: string;
  stderr: string;
  status: number | null;
}

function run(cli: string, args: string[]): Run {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '' }, maxBuffer: 256 << 20 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

const same = (a: Run, b: Run) => a.stdout === b.stdout && a.stderr === b.stderr && a.status === b.status;

function sameOrTwice(pair: () => Run[]): Run[] {
  const first = pair();
  const [a, b] = first;
  return a && b && same(a, b) ? first : pair();
}

/** The first line that differs, old then new. */
function firstDifference(a: Run, b: Run): string {
  const [x, y] = [`${a.stdout}${a.stderr}`.split('\n'), `${b.stdout}${b.stderr}`.split('\n')];
  const i = x.findIndex((line, k) => line !== y[k]);
  const at = i === -1 ? x.length : i;
  return JSON.stringify({ line: at + 1, old: x[at] ?? '', new: y[at] ?? '' });
}

/** The question a scenario folder asks: its pod, or (none named) a triage of every namespace. */
function questionOf(dir: string): string[] {
  const expected = path.join(dir, 'expected.yaml');
  const query = existsSync(expected) ? (parseYaml(readFileSync(expected, 'utf8')) as { query?: { namespace?: string; name?: string } } | null)?.query : undefined;
  const dump = ['--from-dump', path.join(dir, 'cluster.yaml')];
  return query?.name ? [query.name, '-n', query.namespace ?? 'default', ...dump] : ['-A', ...dump];
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'why-pending-compare-'));
const old = path.join(scratch, 'old');
try {
  execFileSync('git', ['-C', repo, 'worktree', 'add', '--detach', old, ref], { stdio: 'ignore' });
  symlinkSync(path.join(repo, 'node_modules'), path.join(old, 'node_modules'));
  process.stderr.write(`building ${ref} in ${old}\n`);
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: old, stdio: 'inherit' });
  const clis = { old: path.join(old, 'dist', 'cli', 'main.js'), new: path.join(repo, 'dist', 'cli', 'main.js') };
  const folders = ['scenarios', 'triage-scenarios'].flatMap((f) =>
    readdirSync(path.join(repo, 'test', f), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join(repo, 'test', f, d.name)),
  );
  let runs = 0;
  let differ = 0;
  for (const dir of folders) {
    const question = questionOf(dir);
    for (const format of formats) {
      const args = [...question, ...format];
      runs++;
      // Twice before it counts: a report says how long ago things happened, and two runs may
      // straddle a second.
      const [before, after] = sameOrTwice(() => [run(clis.old, args), run(clis.new, args)]);
      if (!before || !after || same(before, after)) continue;
      differ++;
      process.stdout.write(`differs: ${path.relative(repo, dir)} ${format.join(' ')} (exit ${before.status} -> ${after.status}): ${firstDifference(before, after)}\n`);
    }
  }
  process.stdout.write(`${runs} runs of ${folders.length} scenario folders in ${formats.length} formats: ${differ} differ from ${ref}\n`);
  process.exitCode = differ === 0 ? 0 : 1;
} finally {
  if (!values.keep) {
    execFileSync('git', ['-C', repo, 'worktree', 'remove', '--force', old], { stdio: 'ignore' });
    rmSync(scratch, { recursive: true, force: true });
  }
}
