// npm run bench:replay -- [--nodes 300 --pods 3000 | --record-from KUBECONFIG] [--scale 1.5] [--runs 3] [--cases de]
//   [--record] [--store DIR] [--settle 30] [--json FILE] [--no-write]
// Issue 33, "150,000 pods, replayed": the apiserver's answers at a size the control plane can
// hold, recorded once, served again by a small replay server (test/bench/replay/server.ts, a
// process of its own) and scaled by renaming to a size it cannot, to measure the tool's own
// cost there. Steps:
// 1. Record (replay/record.ts), unless the store holds a recording already (--record: again):
//    a control plane seeded as bench:live seeds it (replay/seeded.ts), or the cluster a
//    kubeconfig names (--record-from, e.g. one held by `npm run bench:live -- --hold`). Items as
//    served, JSON and protobuf, into ~/.cache/why-pending/replay/<nodes>x<pods>/ (--store).
// 2. For the recorded size and the size scaled by --scale (replay/scale.ts): start the replay
//    server; check the renamed copies through the project's own decoder (replay/check.ts); run
//    once unmeasured what is measured (the server keeps each gzipped page once made); then, in
//    --runs rounds, why-pending on each case (bin/kubectl-why_pending, -o json, its answer
//    checked) and the raw paged read of every pod in JSON and in protobuf
//    (test/bench/live/raw-list.ts), each under /usr/bin/time.
// 3. Print the table and write it into BENCHMARKS.md, "Replayed at scale". Not part of npm test.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_NAMESPACE, benchCases, type BenchCase } from './live/cases.js';
import { candidateStride, tainted } from './live/seed.js';
import { checkAnswer, checkPaging, checkRenamed } from './replay/check.js';
import { endpointFor } from './replay/endpoint.js';
import { measure, median, type Measured } from './timed.js';
import { record } from './replay/record.js';
import { machine, targetsTable, writeSection, type Target } from './markdown.js';
import { table, type ReadRow, type SizeRows } from './replay/report.js';
import { startReplayServer, type ReplayServer } from './replay/serve.js';
import { startSeeded } from './replay/seeded.js';
import { defaultStore, readManifest, type Manifest } from './replay/store.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const node = path.join(repo, 'node_modules', 'node', 'bin', 'node');
const launcher = path.join(repo, 'bin', 'kubectl-why_pending');
const rawList = path.join(import.meta.dirname, 'live', 'raw-list.ts');

const { values: args } = parseArgs({
  options: {
    nodes: { type: 'string', default: '300' },
    pods: { type: 'string', default: '3000' },
    scale: { type: 'string', default: '1.5' },
    runs: { type: 'string', default: '3' },
    cases: { type: 'string', default: 'de' },
    record: { type: 'boolean', default: false },
    'record-from': { type: 'string' },
    store: { type: 'string' },
    width: { type: 'string', default: '24' },
    /** Longest wait for a quiet machine before each measured run, in seconds (bench:live waits 30). */
    settle: { type: 'string', default: '30' },
    json: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
const say = (line: string) => process.stderr.write(`[bench:replay ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const runs = Number(args.runs);
const settleMs = Number(args.settle) * 1000;
const factor = Number(args.scale);
if (!(runs > 0 && factor >= 1)) throw new Error('usage: --runs R (R > 0) --scale F (F >= 1)');
const caseIds = args.cases;
/** The cases measured, by name; their pods as recorded (the requests in cases.ts only name them here). */
const measured = benchCases(0).filter((k) => caseIds.includes(k.id));
const caseName = (k: BenchCase) => (k.pod['metadata'] as { name: string }).name;
const caseRefs = measured.map((k) => ({ id: k.id, namespace: BENCH_NAMESPACE, name: caseName(k) }));

async function recordStore(): Promise<{ store: string; manifest: Manifest }> {
  const from = args['record-from'];
  if (from) {
    const into = args.store ?? path.join(path.dirname(defaultStore(0, 0)), `recording-${process.pid}`);
    const endpoint = await endpointFor(from);
    say(`recording ${endpoint.server} (${from}) into ${into}`);
    try {
      const manifest = await record(endpoint, { dir: into, from: `${endpoint.server} (--record-from)`, cases: caseRefs, say });
      if (args.store) return { store: into, manifest };
      const store = defaultStore(manifest.nodes, manifest.boundPods);
      rmSync(store, { recursive: true, force: true });
      renameSync(into, store);
      return { store, manifest };
    } finally {
      endpoint.close();
    }
  }
  const store = args.store ?? defaultStore(Number(args.nodes), Number(args.pods));
  const seeded = await startSeeded(Number(args.nodes), Number(args.pods), caseIds, Number(args.width), say);
  try {
    const endpoint = await endpointFor(seeded.kubeconfig);
    say(`recording into ${store}`);
    try {
      return { store, manifest: await record(endpoint, { dir: store, from: 'the test control plane (test/e2e/harness), seeded as bench:live seeds it', cases: caseRefs, say }) };
    } finally {
      endpoint.close();
    }
  } finally {
    await seeded.stop();
  }
}

const given = args.store ?? (args['record-from'] ? undefined : defaultStore(Number(args.nodes), Number(args.pods)));
const { store, manifest } = !args.record && given && existsSync(path.join(given, 'manifest.json')) ? { store: given, manifest: readManifest(given) } : await recordStore();
say(`recording in ${store}: ${manifest.nodes} nodes, ${manifest.boundPods} bound pods, recorded ${manifest.recordedAt}`);
for (const f of manifest.fidelity) say(`  re-encoded from its items, ${f.what}: ${f.identical ? 'identical to what was served' : `DIFFERS: ${f.detail ?? ''}`}`);
const missing = caseRefs.filter((c) => !manifest.cases.some((m) => m.namespace === c.namespace && m.name === c.name));
if (missing.length > 0) throw new Error(`the recording has no pod for case ${missing.map((c) => `(${c.id})`).join(', ')}: record again with --record --cases ${caseIds}`);

const nodeIndexes = Array.from({ length: manifest.nodes }, (_, i) => i);
// Recorded from bench:live's even spread: no node cordoned (no incident) or packed (no --skew).
const cluster = { nodes: manifest.nodes, tainted: nodeIndexes.filter(tainted).length, candidates: nodeIndexes.filter((i) => i % candidateStride(manifest.nodes) === 0 && !tainted(i)).length, cordoned: 0, packed: 0 };

/** The engine's laps in the CLI (WHY_PENDING_TIMINGS=1): node index plus diagnosis (plus a second one), ms. */
function engineMs(stderr: string): number {
  const line = stderr.split('\n').find((l) => l.startsWith('timings: ')) ?? '';
  const laps = new Map([...line.matchAll(/([a-z -]+?) ([0-9.]+) ms \(cpu/g)].map((m) => [(m[1] ?? '').trim(), Number(m[2])]));
  return (laps.get('node index') ?? 0) + (laps.get('diagnosis') ?? 0) + (laps.get('second diagnosis') ?? 0);
}

interface ToolRun extends Measured {
  requests: number;
  podItems: number;
  engineMs: number;
}

async function runTool(server: ReplayServer, k: BenchCase): Promise<ToolRun> {
  await server.requests();
  const env: NodeJS.ProcessEnv = { ...process.env, KUBECONFIG: server.kubeconfig, NO_COLOR: '1', WHY_PENDING_TIMINGS: '1' };
  delete env['WHY_PENDING_DEBUG'];
  const m = await measure(launcher, [caseName(k), '-n', BENCH_NAMESPACE, '-o', 'json'], env, { settleMs });
  checkAnswer(k, m.stdout, cluster);
  const served = await server.requests();
  const refused = served.filter((r) => r.status !== 200);
  if (refused.length > 0) say(`  (${k.id}) the replay server answered ${refused.map((r) => `${r.status} to ${r.path}`).join('; ')}`);
  const podItems = served.filter((r) => r.kind.startsWith('list pods')).reduce((n, r) => n + r.items, 0);
  return { ...m, requests: served.length, podItems, engineMs: engineMs(m.stderr) };
}

interface RawRun extends Measured {
  pages: number;
  bytes: number;
}

async function runRaw(server: ReplayServer, protobuf: boolean): Promise<RawRun> {
  const m = await measure(node, [rawList, ...(protobuf ? ['--protobuf'] : []), server.url, server.token, server.caFile], process.env, { settleMs });
  const out = JSON.parse(m.stdout) as { pages: number; bytes: number };
  return { ...m, ...out };
}

async function measureSize(scaleBy: number): Promise<{ size: SizeRows; tools: Map<string, ToolRun[]>; raw: { json: RawRun[]; protobuf: RawRun[] }; pods: number }> {
  const server = await startReplayServer(store, scaleBy, say);
  try {
    say(`replay server ${server.url} at x${scaleBy}: ${server.pods} pods (${server.copies} renamed copies), ${server.nodes} nodes`);
    if (scaleBy > 1) say(`  ${await checkRenamed(server)} renamed copies decoded (protobuf and JSON) and held against their originals`);
    // One namespace's pods (the last listed: a renamed one once scaled) and every node, through the project's transport.
    const listed = (JSON.parse((await server.get('/api/v1/namespaces')).toString('utf8')) as { items: { metadata: { name: string } }[] }).items.map((n) => n.metadata.name);
    const pagedNamespace = listed.filter((n) => !n.startsWith('kube-') && n !== 'default' && !manifest.cases.some((c) => c.namespace === n)).at(-1) ?? 'default';
    const pages = (await checkPaging(server, `/api/v1/namespaces/${pagedNamespace}/pods`, 'pods')) + (await checkPaging(server, '/api/v1/nodes', 'nodes'));
    say(`  paging: the pods of namespace ${pagedNamespace} and every node read in pages of 37 through the project's transport (${pages} pages), JSON and protobuf: the same items as in one page`);
    say('  warm-up: each read once, unmeasured (the server makes and keeps its gzipped pages)');
    for (const k of measured) await runTool(server, k);
    await runRaw(server, false);
    await runRaw(server, true);
    const tools = new Map<string, ToolRun[]>(measured.map((k) => [k.id, []]));
    const raw = { json: [] as RawRun[], protobuf: [] as RawRun[] };
    for (let r = 1; r <= runs; r++) {
      say(`  round ${r} of ${runs}`);
      for (const k of measured) {
        const got = await runTool(server, k);
        tools.get(k.id)?.push(got);
        say(`    (${k.id}) ${got.wallSeconds.toFixed(2)} s, ${got.maxRssMB.toFixed(0)} MB, ${got.requests} requests, ${got.podItems} pod items, engine ${got.engineMs.toFixed(0)} ms`);
      }
      for (const protobuf of [false, true]) {
        const got = await runRaw(server, protobuf);
        (protobuf ? raw.protobuf : raw.json).push(got);
        say(`    raw ${protobuf ? 'protobuf' : 'JSON'} ${got.wallSeconds.toFixed(2)} s, ${got.maxRssMB.toFixed(0)} MB, ${got.pages} pages, ${(got.bytes / 1e6).toFixed(0)} MB`);
      }
    }
    const rawJson = median(raw.json.map((x) => x.wallSeconds));
    const rawProtobuf = median(raw.protobuf.map((x) => x.wallSeconds));
    const rows: ReadRow[] = [
      ...measured.map((k): ReadRow => {
        const rs = tools.get(k.id) ?? [];
        const wall = median(rs.map((x) => x.wallSeconds));
        return { what: `(${k.id}) \`kubectl why-pending ${caseName(k)} -n ${BENCH_NAMESPACE} -o json\`: ${k.title}`, wallSeconds: wall, maxRssMB: median(rs.map((x) => x.maxRssMB)), vsJson: wall / rawJson, vsProtobuf: wall / rawProtobuf, requests: median(rs.map((x) => x.requests)), podItems: median(rs.map((x) => x.podItems)), engineMs: median(rs.map((x) => x.engineMs)) };
      }),
      ...(['json', 'protobuf'] as const).map((kind): ReadRow => {
        const rs = raw[kind];
        return { what: `raw paged LIST of every pod, ${kind === 'json' ? 'JSON' : 'protobuf'} (test/bench/live/raw-list.ts: limit 500, gzip; ${rs[0]?.pages ?? 0} pages, ${((rs[0]?.bytes ?? 0) / 1e6).toFixed(0)} MB decoded)`, wallSeconds: median(rs.map((x) => x.wallSeconds)), maxRssMB: median(rs.map((x) => x.maxRssMB)), requests: rs[0]?.pages ?? 0 };
      }),
    ];
    const title = scaleBy > 1 ? `**${server.pods.toLocaleString('en')} pods** (${manifest.boundPods.toLocaleString('en')} recorded × ${scaleBy} by renaming), ${server.nodes.toLocaleString('en')} nodes` : `**${server.pods.toLocaleString('en')} pods** as recorded, ${server.nodes.toLocaleString('en')} nodes`;
    return { size: { title, rows, serverPeakMB: server.peakRssMB() }, tools, raw, pods: server.pods };
  } finally {
    await server.stop();
  }
}

const sizes = factor > 1 ? [1, factor] : [1];
const results = [];
for (const s of sizes) results.push(await measureSize(s));
const markdown = table(
  results.map((r) => r.size),
  runs,
);
console.log(markdown);
const largest = results[results.length - 1];
const goals: Target[] = largest
  ? measured.flatMap((k): Target[] => {
      const row = largest.size.rows.find((r) => r.what.startsWith(`(${k.id})`));
      if (!row) return [];
      return [
        { target: `(${k.id}) at most 0.6 times the replayed raw JSON read of every pod`, measured: `${(row.vsJson ?? 0).toFixed(2)} (${row.wallSeconds.toFixed(2)} s; ${(row.vsProtobuf ?? 0).toFixed(2)} of the protobuf read)`, met: (row.vsJson ?? Infinity) <= 0.6 },
        { target: `(${k.id}) peak RSS at most 500 MB`, measured: `${row.maxRssMB.toFixed(0)} MB`, met: row.maxRssMB <= 500 },
      ];
    })
  : [];
const goalTable = targetsTable('target (issue 33, at the largest size replayed here)', goals);
console.log(goalTable);
if (args.json) writeFileSync(args.json, `${JSON.stringify({ manifest: { ...manifest, documents: undefined }, cluster, sizes: results.map((r) => r.size) }, null, 2)}\n`);

if (!args['no-write']) {
  const nodeVersion = (JSON.parse(readFileSync(path.join(repo, 'node_modules', 'node', 'package.json'), 'utf8')) as { version: string }).version;
  const version = /"gitVersion":\s*"([^"]+)"/.exec(manifest.documents['/version'] ?? '')?.[1] ?? '?';
  const fidelity = manifest.fidelity.every((f) => f.identical) ? 'each first page, rebuilt from its items by the replay server\'s encoders, was byte for byte what the apiserver had served' : `rebuilt from its items, ${manifest.fidelity.filter((f) => !f.identical).map((f) => f.what).join(', ')} differed from what the apiserver had served`;
  const intro = [
    '**Every figure in this section is replayed, not live**: the apiserver\'s answers were recorded once from',
    'a seeded control plane and are served again by a small replay server; the live figures are those of',
    '`npm run bench:live` above. `npm run bench:replay -- --nodes N --pods M --scale F` (test/bench/replay.ts)',
    'seeds the test control plane as bench:live seeds it, records the items of every collection why-pending',
    'can read (JSON and, for pods and nodes, protobuf, as served) into `~/.cache/why-pending/replay/<N>x<M>/`,',
    'and stops it; `--record-from KUBECONFIG` records a cluster already seeded, e.g. one held by',
    '`npm run bench:live -- --hold`. The replay server (test/bench/replay/server.ts, a process of its own: its CPU',
    'and memory are not the tool\'s) pages the items again with its own continue tokens, answers the selectors',
    'the tool sends, JSON, protobuf or metadata only, gzipped as the apiserver gzips (level 1, from 128 KiB), over',
    'HTTPS. It scales a recording by renaming: bound pods are copied into namespaces of the same length',
    '(`team-07` -> `tean-07`) with a uid one hex digit apart, so the protobuf bytes need no length written again;',
    'the copies request nothing (their requests\' digits become zeros), so each node keeps the free cpu and memory',
    'the cases were recorded with and the answers stay those checked (nodes stay as recorded, with more pods each).',
    'Each page is gzipped once and kept (a warm-up run of each read comes first), so the reads measured pay for',
    'receiving, inflating and decoding, not for a server encoding: the apiserver\'s own cost is the live figures\'.',
    'Every answer of the tool is checked as bench:live checks it; the renamed copies are decoded by the',
    'project\'s own protobuf reader and held against their JSON and their originals, and the server\'s paging is',
    'read through the project\'s own transport in pages of 37 (one namespace\'s pods, every node), JSON and',
    'protobuf, and held against one page. The issue\'s targets are for 150,000 pods:',
    '`npm run bench:replay -- --nodes 5000 --pods 100000 --scale 1.5 --width 48` (seeding 100,000 pods takes the',
    'longest), or record a cluster held by `npm run bench:live -- --nodes 5000 --pods 100000 --hold --no-peer` with',
    '`npm run bench:replay -- --record-from KUBECONFIG --scale 1.5`.',
  ].join('\n');
  const body = [
    `Last run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: \`npm run bench:replay -- ${process.argv.slice(2).join(' ')}\`, on ${machine(nodeVersion)}.`,
    `Recorded ${manifest.recordedAt.slice(0, 16).replace('T', ' ')} UTC from ${manifest.from} (${version}): ${manifest.nodes.toLocaleString('en')} nodes, ${manifest.boundPods.toLocaleString('en')} bound pods; ${fidelity}.`,
    '',
    markdown,
    '',
    goalTable,
    ...(largest && largest.pods < 150_000 ? ['', `A validation at ${largest.pods.toLocaleString('en')} pods: its figures show that the replay works and the answers hold, not whether the issue's targets, set for 150,000 pods, are met.`] : []),
  ].join('\n');
  writeSection(path.join(repo, 'BENCHMARKS.md'), { script: 'bench:replay', heading: 'Replayed at scale' }, intro, body);
  say('wrote BENCHMARKS.md, "Replayed at scale"');
}
