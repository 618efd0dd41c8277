// npm run bench:watch -- [--minutes 60] [--churn 50] [--nodes 50] [--every 60] [--end running|sigint] [--no-write]
// Issue 33, "a long watch": `kubectl why-pending <pod> -n watch --watch` on a pending pod for
// --minutes while --churn pods a second are created and deleted in another namespace, the
// apiserver restarts once (at --restart-at of the run) and the watch's resourceVersion expires
// once (an etcd compaction at --expire-at; see watch/history.ts). Every --every seconds one
// write changes the pod's verdict (watch/steps.ts); what the tool printed is held against a
// fresh read (watch/verdicts.ts). The tool's VmRSS / VmHWM is sampled every --sample seconds.
// At the end the harness binds the pod and sets it Running, and the tool must exit 0 (--end
// sigint: interrupts it instead and reports how it ended). Writes the table to BENCHMARKS.md,
// "A long watch". Not part of npm test.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startTestCluster } from '../e2e/harness/index.js';
import { ensureNamespace, NODE_CPU_MILLIS, nodeName, pool, seedNode } from './live/seed.js';
import { startChurn } from './watch/churn.js';
import { AuditTail, compactEtcd, etcdRevision, expiredAnswer, expiries, toolRequests, type HistoryCut } from './watch/history.js';
import { oracle, type Verdict } from './watch/oracle.js';
import { machine, targetsTable, writeSection, type Target } from './markdown.js';
import { bind, cycle, running, type Step } from './watch/steps.js';
import { startWatching, type Ended, type MemorySample, type WatchingTool } from './watch/tool.js';
import { judge, textOf, type StepRecord } from './watch/verdicts.js';

const repo = path.resolve(import.meta.dirname, '..', '..');
const launcher = path.join(repo, 'bin', 'kubectl-why_pending');
const NS = 'watch';
const CHURN_NS = 'churn';
const POD = 'long-wait';
const USER = 'watcher';
const INTRO = [
  '`npm run bench:watch -- --minutes 60 --churn 50 --nodes 50 --every 60` (test/bench/watch.ts, issue 33) starts the',
  'end-to-end control plane, seeds `--nodes` nodes of 16 cpu and a pod asking for 64 cpu, and runs',
  '`kubectl why-pending long-wait -n watch --watch` (bin/kubectl-why_pending) for `--minutes` while `--churn` pods a',
  'second are created and deleted in another namespace (each lives 5 s; the scheduler binds them). Every',
  '`--every` seconds one write moves the pod\'s verdict (a node that would fit, tainted; untainted and',
  'cordoned; its allocatable cpu scaled down in its status; uncordoned; deleted), and what the tool printed is',
  'held against a fresh read made once the write is done. The apiserver restarts once (at 40% of the run:',
  'SIGTERM, SIGKILL 5 s later if still there, started again on the same port and etcd data) and the watch\'s resourceVersion',
  'expires once (at 70%: etcd compacted to its current revision; the tool\'s events watch, which etcd serves',
  'rather than the apiserver\'s cache, starts again from before it and gets a 410); the tool\'s requests are read',
  'from the audit log. Its VmRSS and VmHWM are read from /proc every 5 s. At the end the harness binds the',
  'pod and sets it Running: the tool must print it and exit 0. Before "--watch waits out an apiserver',
  'restart" the tool died in the restart (exit 5: "watching pods: ... closed the connection before answering").',
].join('\n');

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '60' },
    churn: { type: 'string', default: '50' },
    nodes: { type: 'string', default: '50' },
    every: { type: 'string', default: '60' },
    /** Churn requests in flight at most. */
    width: { type: 'string', default: '16' },
    /** Seconds a churn pod lives. */
    lifetime: { type: 'string', default: '5' },
    sample: { type: 'string', default: '5' },
    'restart-at': { type: 'string', default: '0.4' },
    'expire-at': { type: 'string', default: '0.7' },
    end: { type: 'string', default: 'running' },
    'no-write': { type: 'boolean', default: false },
  },
});
const minutes = Number(args.minutes);
const rate = Number(args.churn);
const nodes = Number(args.nodes);
const everyMs = Number(args.every) * 1000;
if (!(minutes > 0 && rate >= 0 && nodes > 0 && everyMs >= 5000) || !['running', 'sigint'].includes(args.end)) {
  throw new Error('usage: --minutes M --churn PODS_PER_SECOND --nodes N --every SECONDS (>= 5) [--end running|sigint]');
}
const say = (line: string) => process.stderr.write(`[bench:watch ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;

// etcd at info level logs each compaction (the apiserver's own, every 5 minutes): watch/history.ts.
const c = await startTestCluster({ users: [{ name: USER, groups: ['system:masters'] }], extraArgs: { etcd: ['--log-level=info'] }, log: say });
try {
  say(`seeding ${nodes} nodes of ${NODE_CPU_MILLIS / 1000} cpu`);
  for (const ns of [NS, CHURN_NS]) await ensureNamespace(c.api, ns);
  for (const ns of [NS, CHURN_NS]) await c.waitForServiceAccount(ns);
  await pool(nodes, 16, (i) => seedNode(c.api, i, nodes));
  // More cpu than any node has: pending, and the cycle's node moves its verdict.
  await c.api.post(`/api/v1/namespaces/${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: POD }, spec: { containers: [{ name: 'main', image: 'registry.example.com/long:v1', resources: { requests: { cpu: '64', memory: '1Gi' } } }] } });
  const { condition } = await c.waitForPodScheduled(NS, POD);
  say(`${NS}/${POD}: ${condition.reason ?? ''}: ${condition.message ?? ''}`);
  const fresh = oracle(c.kubeconfig, NS, POD);

  const churn = startChurn(c.api, { namespace: CHURN_NS, rate, width: Number(args.width), lifetimeMs: Number(args.lifetime) * 1000 });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  // A line that arrives while this process is held up is timed late: say when that happened.
  let tick = Date.now();
  const stalls = setInterval(() => {
    const late = Date.now() - tick - 100;
    if (late > 500) say(`this process was held up ${late} ms`);
    tick = Date.now();
  }, 100);
  const audit = new AuditTail(c.auditLog, c.audit.mark());
  // WHY_PENDING_TIMINGS: the tool says at each wake where its memory is (src/cli/timings.ts).
  const env: NodeJS.ProcessEnv = { ...process.env, KUBECONFIG: c.kubeconfigFor(USER), NO_COLOR: '1', WHY_PENDING_TIMINGS: '1' };
  delete env['WHY_PENDING_DEBUG'];
  const tool = startWatching(launcher, [POD, '-n', NS, '--watch'], env, Number(args.sample) * 1000);
  const t0 = Date.now();
  say(`watching: pid ${tool.pid}; ${rate} churn pods a second in ${CHURN_NS}; a change every ${secs(everyMs)} for ${minutes} min`);
  const first = await tool.waitForLine(0, () => true, 60_000);
  if (!first) throw new Error(`the tool printed nothing in 60 s: ${tool.stderr()}`);
  let verdict: Verdict = await fresh();
  if (textOf(first) !== verdict.headline) throw new Error(`the tool's first line "${textOf(first)}" is not a fresh read's "${verdict.headline}"`);
  say(`first line after ${secs(first.at - t0)}: ${textOf(first)}`);

  const records: StepRecord[] = [];
  let follows: StepRecord['follows'];
  /** Closes the last record's window: what the tool printed up to now is the last change's. */
  const close = () => {
    const last = records.at(-1);
    if (last) last.lines = tool.lines.filter((l) => l.at >= last.at);
  };
  const change = async (step: Step) => {
    close();
    const from = tool.lines.length;
    const at = Date.now();
    await step.apply(c.api);
    // Waiting for the tool's line first, so that the fresh read does not compete with its read.
    await tool.waitForLine(from, () => true, 3000);
    const before = verdict;
    verdict = await fresh();
    records.push({ what: step.what, at, before, after: verdict, lines: [], ...(follows ? { follows } : {}) });
    follows = undefined;
    const printed = tool.lines.slice(from);
    say(`${step.what}: ${printed.length ? `printed after ${secs((printed[0]?.at ?? at) - at)}: ${printed.map(textOf).join(' | ').slice(0, 220)}` : 'nothing printed'}`);
  };

  const cuts: HistoryCut[] = [];
  const restart: { at: number; downMs: number; running: boolean } = { at: 0, downMs: 0, running: false };
  const forced: { revision: number; at: number; watchRv?: number; answer?: string; rereadMs?: number; tries: number } = { revision: 0, at: 0, tries: 0 };

  const restartApiserver = async () => {
    const revision = await etcdRevision(c.etcd);
    restart.at = Date.now();
    cuts.push({ at: restart.at, revision, of: 'cache', cause: 'apiserver restart' });
    say(`restarting the apiserver (etcd revision ${revision})`);
    await c.restartApiserver();
    restart.downMs = Date.now() - restart.at;
    restart.running = tool.running();
    say(`apiserver ready again after ${secs(restart.downMs)}; the tool is ${restart.running ? 'still running' : `gone: ${tool.stderr()}`}`);
    follows = 'restart';
  };

  // Compacts etcd, then waits for the tool's events watch to start again from before the
  // compaction (it does when the server ends it, each minute) and for its next read. A wake-up
  // in between (its own pod's events) takes a new resourceVersion first: then compact again.
  const expire = async () => {
    while (forced.tries < 3 && forced.answer === undefined) {
      forced.tries++;
      forced.revision = await etcdRevision(c.etcd);
      await compactEtcd(c.etcd, forced.revision);
      forced.at = Date.now();
      cuts.push({ at: forced.at, revision: forced.revision, of: 'etcd', cause: 'forced etcd compaction' });
      say(`compacted etcd to revision ${forced.revision}; waiting for the tool's events watch to start again`);
      const until = Date.now() + 90_000;
      while (Date.now() < until && forced.answer === undefined) {
        await sleep(1000);
        const requests = toolRequests(audit.read(), USER).filter((r) => r.at > forced.at);
        const watch = requests.find((r) => r.verb === 'watch' && r.resource === 'events');
        if (!watch) continue;
        if ((watch.rv ?? Infinity) >= forced.revision) break; // read again meanwhile: compact again
        forced.watchRv = watch.rv;
        forced.answer = (await expiredAnswer(c.api, watch.uri)) ?? 'not 410';
        await sleep(2000);
        const list = toolRequests(audit.read(), USER).find((r) => r.verb === 'list' && r.at >= watch.at);
        if (list) forced.rereadMs = list.at - watch.at;
        say(`the tool's events watch from ${watch.rv ?? '?'} (the server answers: ${forced.answer}); it read again ${list ? `${list.at - watch.at} ms later` : 'not within 2 s'}`);
      }
    }
    follows = 'expiry';
  };

  // The plan: a change every --every; the restart and the expiry half-way between two changes.
  const T = minutes * 60_000;
  const between = (fraction: number) => t0 + (Math.floor((T * fraction) / everyMs) + 0.5) * everyMs;
  const specials = [
    { at: between(Number(args['restart-at'])), run: restartApiserver },
    { at: between(Number(args['expire-at'])), run: expire },
  ].filter((s) => s.at < t0 + T - everyMs / 2);
  let nextChange = t0 + everyMs;
  let k = 0;
  let minuteOne: MemorySample | undefined;
  const takeMinuteOne = () => {
    if (!minuteOne && Date.now() - t0 >= 60_000) minuteOne = tool.sample();
  };
  const minuteOneTimer = setInterval(takeMinuteOne, 500);
  for (;;) {
    const special = specials[0];
    const next = Math.min(nextChange, special?.at ?? Infinity);
    if (next >= t0 + T || !tool.running()) break;
    await sleep(next - Date.now());
    if (special && next === special.at) {
      specials.shift();
      await special.run();
      nextChange = Math.max(nextChange, Date.now() + everyMs / 2);
      continue;
    }
    await change(cycle[k++ % cycle.length] as Step);
    nextChange += everyMs;
  }
  if (tool.running()) await sleep(t0 + T - Date.now());
  clearInterval(minuteOneTimer);
  const atEnd = tool.sample();
  const hwm1 = minuteOne?.hwmKB ?? NaN;
  const hwmEnd = atEnd?.hwmKB ?? Math.max(...tool.memory.map((m) => m.hwmKB));

  // The end.
  let ended: Ended | undefined;
  let doneMs: number | undefined;
  if (args.end === 'running' && tool.running()) {
    await change(bind(NS, POD, nodeName(0)));
    const runningAt = Date.now();
    await change(running(NS, POD));
    ended = await Promise.race([tool.ended, sleep(10_000).then(() => undefined)]);
    const done = tool.lines.find((l) => l.at >= runningAt && /no longer pending\. Done\.$/.test(l.text));
    if (done) doneMs = done.at - runningAt;
  }
  if (!ended) {
    tool.signal('SIGINT');
    ended = await tool.ended;
  }
  close();
  loop.disable();
  clearInterval(stalls);
  const churned = await churn.stop();

  // What happened to the tool's watches, from the audit log and etcd's.
  const requests = toolRequests(audit.read(), USER);
  const etcdLog = readFileSync(c.logs.etcd, 'utf8');
  for (const m of etcdLog.matchAll(/^\{.*"msg":"finished scheduled compaction".*$/gm)) {
    const entry = JSON.parse(m[0]) as { ts?: string; 'compact-revision'?: number };
    const at = Date.parse(entry.ts ?? '');
    const revision = Number(entry['compact-revision']);
    if (!cuts.some((cut) => cut.of === 'etcd' && cut.revision === revision)) cuts.push({ at, revision, of: 'etcd', cause: "the apiserver's own etcd compaction" });
  }
  cuts.sort((a, b) => a.at - b.at);
  const expired = expiries(requests, cuts);
  const marks = requests.filter((r) => r.verb === 'list' && r.resource === 'nodes' && /[?&]limit=1(&|$)/.test(r.uri)).length;

  // The figures.
  const judged = records.map(judge);
  const changes = judged.filter((j) => j.changed);
  const latencies = changes.flatMap((j) => (j.latencyMs === undefined ? [] : [j.latencyMs]));
  const sorted = [...latencies].sort((a, b) => a - b);
  const maxLatency = sorted.at(-1) ?? NaN;
  const wrong = judged.filter((j) => !j.right);
  for (const j of judged) say(`  ${j.right ? 'ok ' : 'BAD'} ${j.record.what}${j.record.follows ? ` (after the ${j.record.follows})` : ''}: ${j.changed ? `${j.latencyMs === undefined ? '-' : `${j.latencyMs} ms`}, ` : ''}${j.why}`);
  // The first change of the verdict after each: it must be printed, and right.
  const firstChangeAfter = (what: 'restart' | 'expiry') => {
    const from = judged.findIndex((j) => j.record.follows === what);
    return from < 0 ? undefined : judged.slice(from).find((j) => j.changed);
  };
  const afterRestart = firstChangeAfter('restart');
  const afterExpiry = firstChangeAfter('expiry');
  const restartExpired = expired.filter((e) => e.cause === 'apiserver restart');
  const growth = hwmEnd / hwm1 - 1;
  const achieved = churned.created / churned.seconds;
  const wholeMinutes = Array.from({ length: Math.floor(churned.seconds / 60) }, (_, i) => churned.createdPerMinute[i] ?? 0);
  const fewest = wholeMinutes.length > 0 ? Math.min(...wholeMinutes) : undefined;
  const minutesRun = (Date.now() - t0) / 60_000;
  const rows: Target[] = [
    {
      target: 'peak RSS at the end within 10% of the peak after the first minute',
      measured: `VmHWM ${mb(hwm1)} after minute 1, ${mb(hwmEnd)} at ${minutes} min (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%); VmRSS ${mb(minuteOne?.rssKB ?? NaN)} then ${mb(atEnd?.rssKB ?? NaN)}${growthByPart(tool.accounts, t0 + 60_000)}`,
      met: growth <= 0.1,
    },
    {
      target: "every change of the pod's verdict printed within 2 s of the write that caused it",
      measured: `${changes.length} changes: max ${maxLatency.toFixed(0)} ms, median ${(sorted[Math.floor(sorted.length / 2)] ?? NaN).toFixed(0)} ms; ${wrong.length === 0 ? 'each as a fresh read says, none missed, nothing printed without a change' : `${wrong.length} wrong: ${wrong.map((j) => `${j.record.what}: ${j.why}`).join('; ')}`}`,
      met: changes.length > 0 && maxLatency <= 2000 && wrong.length === 0 && latencies.length === changes.length,
    },
    {
      target: args.end === 'running' ? 'exit 0 once it runs' : 'exit 0 on SIGINT',
      measured: `${ended.code === null ? `killed by ${ended.signal ?? '?'}` : `exit ${ended.code}`}${doneMs !== undefined ? `, its last line ${doneMs} ms after the pod was set Running` : ''}`,
      met: ended.code === 0,
    },
    {
      target: `churn: ${rate} pods a second created and deleted in another namespace`,
      measured: `${achieved.toFixed(1)} created / s and ${(churned.deleted / churned.seconds).toFixed(1)} deleted / s over ${(churned.seconds / 60).toFixed(1)} min, the restart included${fewest === undefined ? '' : ` (${(fewest / 60).toFixed(1)} / s in the slowest whole minute)`}; ${churned.failedCreates + churned.failedDeletes} requests failed (the restart), ${churned.dropped} creations not sent in time`,
      met: achieved >= rate * 0.95,
    },
    {
      target: 'survives an apiserver restart',
      measured: restart.at === 0 ? 'no restart in this run' : `down ${secs(restart.downMs)}; the tool ${restart.running ? 'kept running' : 'died'}; ${restartExpired.length} of its watches resumed from before the restart: 410 "too old resource version", read again ${restartExpired.map((e) => `${e.rereadMs ?? '?'} ms`).join(', ')} later; next change ${afterRestart ? `${afterRestart.right ? 'right' : 'WRONG'}, ${afterRestart.latencyMs ?? '-'} ms` : 'none'}`,
      met: restart.at > 0 && restart.running && (afterRestart?.right ?? false),
    },
    {
      target: "survives its watch's resourceVersion expiring",
      measured: forced.answer === undefined ? `no expiry seen (${forced.tries} compactions)` : `etcd compacted to ${forced.revision}: its events watch from ${forced.watchRv ?? '?'} got 410 ("${forced.answer}"), read again ${forced.rereadMs ?? '?'} ms later; next change ${afterExpiry ? `${afterExpiry.right ? 'right' : 'WRONG'}, ${afterExpiry.latencyMs ?? '-'} ms` : 'none'}; ${expired.length} expiries in all (${[...new Set(expired.map((e) => e.cause))].join(', ')})`,
      met: forced.answer !== undefined && forced.answer !== 'not 410' && forced.rereadMs !== undefined && (afterExpiry?.right ?? false),
    },
  ];
  const loopNote = `harness event loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms (the precision of the latencies)`;
  const command = `npm run bench:watch -- --minutes ${args.minutes} --churn ${args.churn} --nodes ${args.nodes} --every ${args.every}${args.end === 'sigint' ? ' --end sigint' : ''}`;
  const nodeVersion = readFileSync(path.join(repo, 'node_modules', 'node', 'package.json'), 'utf8').match(/"version":\s*"([^"]+)"/)?.[1] ?? '?';
  const body = [
    `Last run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: \`${command}\` (${minutesRun.toFixed(1)} min), control plane ${c.version} (test/e2e/harness), on ${machine(nodeVersion)}.`,
    `The tool woke ${Math.max(0, marks - 1)} times (its own pod's events included) and read again each time; ${loopNote}.`,
    '',
    targetsTable('target', rows),
  ].join('\n');
  console.log(`\n${body}\n`);
  if (!args['no-write']) {
    writeSection(path.join(repo, 'BENCHMARKS.md'), { script: 'bench:watch', heading: 'A long watch' }, INTRO, body);
    say('wrote BENCHMARKS.md');
  }
  if (tool.stderr().trim()) say(`the tool's stderr: ${tool.stderr().trim()}`);
} finally {
  await c.stop();
}

/**
 * Where the tool's memory grew, by its own account at its wakes: from the first wake after
 * minute 1 to the last, V8's heap by space, what lives outside it, and the rest of the resident
 * size (native: Node's and V8's own, the allocator's arenas).
 */
function growthByPart(accounts: WatchingTool['accounts'], from: number): string {
  const first = accounts.find((a) => a.at >= from);
  const last = accounts.at(-1);
  if (!first || !last || first === last) return '';
  const rest = (m: Record<string, number>) => (m['rss'] ?? 0) - (m['heap'] ?? 0) - (m['external'] ?? 0);
  const delta = (a: number, b: number) => `${b - a >= 0 ? '+' : ''}${(b - a).toFixed(1)}`;
  const spaces = ['new', 'old', 'code', 'large object', 'code large object', 'trusted', 'trusted large object', 'map', 'read only']
    .filter((k) => first.mb[k] !== undefined || last.mb[k] !== undefined)
    .map((k) => `${k} ${delta(first.mb[k] ?? 0, last.mb[k] ?? 0)}`)
    .filter((t) => !/ [+-]0\.0$/.test(t));
  return `; by its own account (${accounts.length} wakes, the first after minute 1 to the last): rss ${delta(first.mb['rss'] ?? 0, last.mb['rss'] ?? 0)} MB = heap ${delta(first.mb['heap'] ?? 0, last.mb['heap'] ?? 0)} (${spaces.join(', ') || 'no space moved'}; used ${delta(first.mb['heap used'] ?? 0, last.mb['heap used'] ?? 0)}), external ${delta(first.mb['external'] ?? 0, last.mb['external'] ?? 0)}, the rest ${delta(rest(first.mb), rest(last.mb))}`;
}
