// Runs `kubectl why-pending` the way a user does: kubectl finds bin/kubectl-why_pending on
// PATH (its plugin lookup), with KUBECONFIG naming a read-only user. After each live run the
// user's requests are read back from the apiserver's audit log; any verb other than get, list
// or watch fails the run.
import { expectValidDiagnosis, expectValidTriage } from '../../support/schema.js';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { describeAudit, requests, writes, type AuditEvent } from './audit.js';
import type { TestCluster } from './index.js';

export const REPO_ROOT = resolve(import.meta.dirname, '../../..');
const BIN_DIR = join(REPO_ROOT, 'bin');
const CLI = join(REPO_ROOT, 'dist', 'cli', 'main.js');

/** The -o json document, as far as the tests read it. */
export interface DiagnosisJson {
  stage: string;
  stageDetail: { stage: string; owner?: { kind: string; namespace?: string; name: string }; failures?: { reason?: string; message?: string; reporter?: string }[]; [k: string]: unknown };
  summary: string;
  pod: { namespace: string; name?: string; uid?: string; [k: string]: unknown };
  cluster?: { version?: string; rulesOf: string; assumed: boolean };
  requests?: Record<string, unknown>;
  preFilter: { plugin: string; code: string; kind: string; message: string }[];
  nodes: {
    name: string;
    fits: boolean;
    verdict: 'fits' | 'fails' | 'unproven';
    firstPlugin?: string;
    reasons: { plugin: string; code: string; kind: string; message: string }[];
    unchecked?: string[];
    nominated?: { decides: boolean; pods: { namespace: string; name: string; priority: number; waitingOn: { namespace: string; name: string }[] }[] };
  }[];
  counts: { nodes: number; fitting: number; unproven: number; byFirstPlugin: Record<string, number> };
  notChecked: { plugin: string; cause: string; kind?: string; namespace?: string; nodes?: string[] }[];
  scheduler: {
    source: string;
    message?: string;
    conditionReason?: string;
    truncated: boolean;
    agrees: boolean | null;
    schedulerTally?: Record<string, number>;
    engineTally?: Record<string, number>;
    differences?: unknown[];
    likelyCauses?: unknown[];
  };
  ownerEvents: unknown[];
  notes: { kind: string; data: Record<string, unknown> }[];
  gaps: { collection: string; cause: string; permission?: { verb: string; resource: string; scope: string }; detail?: string }[];
}

export interface WhyPendingRun {
  args: string[];
  user?: string;
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Parsed stdout when the run asked for -o json and exited 0. */
  json?: DiagnosisJson;
  /** Live runs: the user's requests (one per auditID, last stage), from the audit log. A live run with none did not read the cluster (check it). */
  audited: AuditEvent[];
}

export function assertBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the end-to-end tests`);
}

function spawnKubectl(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const bin = process.env.WHY_PENDING_KUBECTL ?? 'kubectl';
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/**
 * `kubectl why-pending <args>` as `user` (a read-only user of `c`), or with no cluster access
 * at all (user undefined: KUBECONFIG names a file that does not exist, for --from-dump).
 */
export async function whyPending(c: TestCluster, user: string | undefined, args: string[]): Promise<WhyPendingRun> {
  assertBuilt();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${BIN_DIR}${delimiter}${process.env.PATH ?? ''}`,
    KUBECONFIG: user ? c.kubeconfigFor(user) : join(c.dir, 'no-such-kubeconfig'),
    NO_COLOR: '1',
  };
  delete env.WHY_PENDING_DEBUG;
  const mark = user ? c.audit.mark() : 0;
  const t0 = Date.now();
  const res = await spawnKubectl(['why-pending', ...args], env);
  const ms = Date.now() - t0;
  const run: WhyPendingRun = { args, ...(user ? { user } : {}), ...res, ms, audited: [] };
  if (res.code === 0 && args.includes('json')) {
    try {
      run.json = JSON.parse(res.stdout) as DiagnosisJson;
    } catch (e) {
      throw new Error(`kubectl why-pending ${args.join(' ')}: stdout is not JSON (${String(e)}):\n${res.stdout.slice(0, 2000)}`, { cause: e });
    }
    // Live output (forbidden gaps, client-node's Dates) keeps the published contract too.
    // Without a pod name the document is a triage (schema/triage.v1.json).
    if ((run.json as { kind?: string }).kind === 'Triage') expectValidTriage(run.json, `kubectl why-pending ${args.join(' ')}`);
    else expectValidDiagnosis(run.json, `kubectl why-pending ${args.join(' ')}`);
  }
  if (user) {
    run.audited = requests(await c.audit.settle(c.clientFor(user), user, mark));
    const bad = writes(run.audited);
    if (bad.length > 0) {
      throw new Error(`kubectl why-pending ${args.join(' ')} as ${user} sent requests other than get/list/watch:\n${bad.map(describeAudit).join('\n')}`);
    }
  }
  return run;
}

/** One line for a failing expectation: the command, exit code and stderr. */
let captures = 0;

/**
 * `whyPending` as `user` with `--save`, and the capture it wrote read back with no cluster
 * access: the answer must be the very same (stdout whole; a triage's `source` aside, which names
 * where it was read from). Throws, naming both, when it is not. Returns the live run.
 */
export async function whyPendingAndCapture(c: TestCluster, user: string, args: string[]): Promise<WhyPendingRun> {
  const saved = join(c.dir, `round-trip-${++captures}.capture.tar.gz`);
  const live = await whyPending(c, user, [...args, '--save', saved]);
  if (live.code !== 0) return live;
  const back = await whyPending(c, undefined, [...args, '--from-dump', saved]);
  const comparable = (run: WhyPendingRun): string => {
    if (!run.json) return run.stdout;
    const { source: _source, ...rest } = run.json as unknown as Record<string, unknown>;
    return JSON.stringify(rest);
  };
  if (back.code !== 0 || comparable(back) !== comparable(live)) {
    throw new Error(`the capture --save wrote of \`kubectl why-pending ${args.join(' ')}\` reads back otherwise:\n--- live\n${comparable(live).slice(0, 4000)}\n--- from ${saved} (exit ${String(back.code)})\n${comparable(back).slice(0, 4000)}\n${back.stderr}`);
  }
  return live;
}

export function describeRun(run: WhyPendingRun): string {
  return `kubectl why-pending ${run.args.join(' ')}${run.user ? ` (as ${run.user})` : ''} exited ${String(run.code)}${run.stderr.trim() ? `: ${run.stderr.trim()}` : ''}`;
}

/** A run still going (--watch): its output so far, and how it ended once it has. */
export interface RunningWhyPending {
  output(): string;
  stderr(): string;
  /** Resolves when some stdout matches `pattern` (rejects after `timeoutMs` with the output so far). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  ended: Promise<number | null>;
  kill(): void;
  /** The user's requests since the start (read once the run has ended). */
  audited(): Promise<AuditEvent[]>;
}

/** Starts `kubectl why-pending <args>` as `user` and returns at once (see RunningWhyPending). */
export function startWhyPending(c: TestCluster, user: string, args: string[]): RunningWhyPending {
  assertBuilt();
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${BIN_DIR}${delimiter}${process.env.PATH ?? ''}`, KUBECONFIG: c.kubeconfigFor(user), NO_COLOR: '1' };
  delete env.WHY_PENDING_DEBUG;
  const mark = c.audit.mark();
  const child = spawn(process.env.WHY_PENDING_KUBECTL ?? 'kubectl', ['why-pending', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const ended = new Promise<number | null>((resolvePromise) => child.on('close', (code) => resolvePromise(code)));
  return {
    output: () => out,
    stderr: () => err,
    ended,
    kill: () => child.kill(),
    async waitFor(pattern, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      while (!pattern.test(out)) {
        if (Date.now() > until || child.exitCode !== null) throw new Error(`kubectl why-pending ${args.join(' ')}: no ${String(pattern)} in its output:\n${out}\n${err}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    audited: async () => requests(await c.audit.settle(c.clientFor(user), user, mark)),
  };
}
