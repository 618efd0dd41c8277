// npm run bench:libraries [-- --runs 3 --only json,protobuf,transport,tar,proxy]
// Each hand-written part of the reading path beside the maintained library that does the same
// job (ARCHITECTURE.md, "Hand-written where a library exists"; issue 28), on the same input,
// each side in a child process of its own (measure.ts), the sides taking turns, medians of the
// runs. The libraries are installed at pinned versions outside the project (install.ts).
// Prints a markdown table: each side's wall time (loading its code included, and shown apart),
// CPU time and peak RSS, the library's over ours, and whether the library is within 10% of ours
// in time and memory, issue 28's rule for replacing ours. Every pair's sides must read the same
// items (checked). Progress, and each run's figures, go to stderr.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { writeJsonDump } from './dump-files.js';
import { ensureLibraries, pinnedLibraries } from './libraries/install.js';
import { cluster, writeInputs } from './libraries/inputs.js';
import { protoDirs } from './libraries/k8s-proto.js';
import { agree, measure, type Measured, type Side } from './libraries/measure.js';
import { median } from './timed.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, only: { type: 'string' } } });
const runs = Number(values.runs);
/** The proxy's and the captures' runs take a second or less, and their ratios sit near the 10% line: more runs. */
const lightRuns = Math.max(runs, 5);
const parts = new Set((values.only ?? 'json,protobuf,transport,tar,proxy').split(','));
const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const dist = path.join(repoRoot, 'dist');
const say = (line: string) => console.error(line);

interface Row {
  part: string;
  ours: Measured;
  library: Measured;
  /** More to say in a side's cell (the proxy's first GET). */
  detail?: (m: Measured) => string;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const time = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms >= 100 ? 0 : 1)} ms`);

function cell(m: Measured, detail?: (m: Measured) => string): string {
  return `${time(m.totalMs)} [cpu ${time(m.cpuMs)}] (load ${time(m.loadMs)}${detail ? `; ${detail(m)}` : ''}), ${mb(m.rssBytes)}`;
}

/**
 * Issue 28's rule: the library replaces ours where it is within 10% of ours in time (loading
 * included: a run pays both) and in peak RSS. Where the CPU times say otherwise than the wall
 * times (a machine busy with other work), the cell says so too.
 */
function table(rows: readonly Row[]): string {
  const lines = ['| part (input) | ours | library | time, library / ours [cpu] | peak RSS, library / ours | library within 10% on both |', '| --- | --- | --- | --- | --- | --- |'];
  for (const row of rows) {
    const t = row.library.totalMs / row.ours.totalMs;
    const c = row.library.cpuMs / row.ours.cpuMs;
    const r = row.library.rssBytes / row.ours.rssBytes;
    const within = (ratio: number) => (ratio <= 1.1 && r <= 1.1 ? 'yes' : 'no');
    const verdict = within(t) === within(c) ? within(t) : `${within(t)} (by CPU time: ${within(c)})`;
    lines.push(`| ${row.part} | ${cell(row.ours, row.detail)} | ${row.library.label}: ${cell(row.library, row.detail)} | ${t.toFixed(2)} [${c.toFixed(2)}] | ${r.toFixed(2)} | ${verdict} |`);
  }
  return lines.join('\n');
}

/** servers.ts in a process of its own, until `stop`. */
async function startServers(pagesDir: string, podFile: string, work: string): Promise<{ urls: { listUrl: string; apiUrl: string; proxyUrl: string; caFile: string }; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'libraries', 'servers.ts'), pagesDir, podFile, work], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`servers.ts exited with ${code}`)));
  });
  return {
    urls: JSON.parse(first) as { listUrl: string; apiUrl: string; proxyUrl: string; caFile: string },
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

function kubeconfig(file: string, cluster: Record<string, unknown>): string {
  writeFileSync(file, stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'bench', cluster }], users: [{ name: 'bench', user: { token: 'bench-token' } }], contexts: [{ name: 'bench', context: { cluster: 'bench', user: 'bench' } }], 'current-context': 'bench' }));
  return file;
}

const libraries = ensureLibraries();
const work = mkdtempSync(path.join(os.tmpdir(), 'why-pending-libbench-'));
const rows: Row[] = [];
let stopServers: (() => Promise<void>) | undefined;
try {
  if (parts.has('json')) {
    const file = path.join(work, 'dump.json');
    const written = writeJsonDump(file, 200e6);
    say(`JSON dump streaming: ${mb(written.bytes)}, ${written.objects} objects`);
    const sides: Side[] = ['ours', 'stream-json'].map((side) => ({ label: side, script: 'json-child.ts', args: [side, file, dist, libraries] }));
    const [ours, library] = measure(sides, runs, say) as [Measured, Measured];
    const items = agree([ours, library], 'items');
    rows.push({ part: `JSON dump streaming (a List dump as test/bench/dump-files.ts writes it: ${mb(written.bytes)}, ${String(items)} items, each parsed and counted)`, ours, library });
    rmSync(file, { force: true });
  }

  if (parts.has('protobuf') || parts.has('transport') || parts.has('tar') || parts.has('proxy')) {
    const dirs = protoDirs(repoRoot);
    say(`inputs: ${cluster.pods} pods on ${cluster.nodes} nodes, as served (k8s.io/api ${path.basename(dirs.api)})`);
    const inputs = await writeInputs(work, libraries, dirs, say);

    if (parts.has('protobuf')) {
      for (const kind of ['pods', 'nodes'] as const) {
        const args = (side: string) => [side, kind, inputs.protobufPages, dist, libraries, dirs.api, dirs.apimachinery];
        const count = kind === 'pods' ? cluster.protobufPods : cluster.nodes;
        say(`protobuf decoding: ${count} ${kind}`);
        const sides: Side[] = ['ours', 'protobufjs', 'protobufjs-decode'].map((side) => ({ label: side, script: 'protobuf-child.ts', args: args(side) }));
        const [ours, library, decodeOnly] = measure(sides, runs, say) as [Measured, Measured, Measured];
        agree([ours, library, decodeOnly], 'names');
        const what = kind === 'pods' ? `a PodList of ${count} pods in pages of 500 (${mb(inputs.protobufPodBytes)})` : `a NodeList of ${count} nodes in pages of 500`;
        rows.push({ part: `protobuf decoding into the kept records (${what})`, ours, library });
        rows.push({ part: `protobuf decoding, the library's decoding alone, nothing kept (the same ${kind})`, ours, library: decodeOnly });
      }
    }

    if (parts.has('transport') || parts.has('proxy')) {
      const servers = await startServers(inputs.jsonPages, inputs.podFile, work);
      stopServers = servers.stop;
      const { listUrl, apiUrl, proxyUrl, caFile } = servers.urls;
      if (parts.has('transport')) {
        const config = kubeconfig(path.join(work, 'list.kubeconfig'), { server: listUrl, 'insecure-skip-tls-verify': true });
        say(`transport and paging: ${cluster.pods} pods, pages of ${cluster.pageSize}`);
        const sides: Side[] = ['ours', 'client-node', 'undici'].map((side) => ({ label: side === 'client-node' ? '@kubernetes/client-node' : side, script: 'transport-child.ts', args: [side, listUrl, config, dist, libraries] }));
        const [ours, clientNode, undici] = measure(sides, runs, say) as [Measured, Measured, Measured];
        agree([ours, clientNode, undici], 'names');
        const what = `a paged LIST of ${cluster.pods} pods, ${cluster.pageSize} a page, ${mb(inputs.jsonBytes)} of JSON gzipped, from a local HTTP server; every pod kept as compactNeighbour keeps it`;
        rows.push({ part: `transport and paging (${what})`, ours, library: clientNode });
        rows.push({ part: 'transport and paging (the same)', ours, library: undici });
      }
      if (parts.has('proxy')) {
        const config = kubeconfig(path.join(work, 'proxy.kubeconfig'), { server: apiUrl, 'certificate-authority': caFile, 'proxy-url': proxyUrl });
        const gets = 2000;
        say(`proxy tunnel: ${gets} GETs`);
        const sides: Side[] = ['ours', 'ours-agent', 'https-proxy-agent'].map((side) => ({ label: side, script: 'proxy-child.ts', args: [side, apiUrl, proxyUrl, caFile, config, String(gets), dist, libraries] }));
        const [ours, oursAgent, library] = measure(sides, lightRuns, say) as [Measured, Measured, Measured];
        agree([ours, oursAgent, library], 'names');
        const detail = (m: Measured) => `first GET ${time(median(m.runs.map((r) => r.firstMs as number)))}`;
        rows.push({ part: `proxy tunnel, the agents alone in the same https.request loop (${gets} GETs of one pod, one after another, kept alive, through a local CONNECT proxy to a local HTTPS server)`, ours: oursAgent, library, detail });
        rows.push({ part: "proxy tunnel, ours as the CLI sends (Transport with the kubeconfig's proxy-url) against the library's loop above (the same GETs)", ours, library, detail });
      }
      await servers.stop();
      stopServers = undefined;
    }

    if (parts.has('tar')) {
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
      const archives = [
        { what: 'examples/taint-typo.capture.tar.gz, 2.5 KB', file: path.join(repoRoot, 'examples', 'taint-typo.capture.tar.gz') },
        ...inputs.captures.map((c) => ({ what: `${c.what} as kept, packed by packTarGz: ${kb(c.gz)} gzipped, ${mb(c.tar)} of files`, file: c.file })),
      ];
      for (const archive of archives) {
        say(`.tar.gz capture reading: ${archive.what}`);
        const sides: Side[] = ['ours', 'tar'].map((side) => ({ label: side, script: 'tar-child.ts', args: [side, archive.file, dist, libraries] }));
        const [ours, library] = measure(sides, lightRuns, say) as [Measured, Measured];
        agree([ours, library], 'files');
        rows.push({ part: `.tar.gz capture reading, every file into memory (${archive.what})`, ours, library });
      }
    }
  }
} finally {
  await stopServers?.();
  rmSync(work, { recursive: true, force: true });
}

const cpus = os.cpus();
const clientNode = (JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', '@kubernetes', 'client-node', 'package.json'), 'utf8')) as { version: string }).version;
console.log(table(rows));
console.log('');
console.log(`Medians of ${runs} runs per side (${lightRuns} for the proxy and the captures), each a child process (node ${process.version}, the CLI's flags), the sides in turns: wall time from the child's start to the end of its work, loading its code included ("load"), and in brackets the child's CPU time (every thread) over the same span; peak RSS of the child (VmHWM).`);
console.log(`Machine: ${cpus.length} × ${cpus[0]?.model ?? '?'} (nproc ${os.availableParallelism()}), ${Math.round(os.totalmem() / 1e9)} GB, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')} (1 / 5 / 15 min) at the end; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`);
console.log(`Libraries: ${Object.entries(pinnedLibraries).map(([name, version]) => `${name} ${version}`).join(', ')}; @kubernetes/client-node ${clientNode} (the project's).`);
