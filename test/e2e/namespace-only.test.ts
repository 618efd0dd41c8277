// A user who may read one namespace only (the README's namespace-only Role, bound by a
// RoleBinding: reads of pods, events, claims, limit ranges, quotas and the apps and batch
// workloads), once with a
// token and once with a client certificate signed by the apiserver's --client-ca-file. The
// diagnosis is partial but still useful: exit 0, the JSON gaps name every permission the user
// lacked (list nodes at cluster scope first of all), each named permission really is denied
// and every refused request is named, the scheduler's message is still read and explained,
// and the human output names the missing permissions. The capture --save writes of that read
// names the refusals in its manifest and gives the same diagnosis. Everything read-only (audit log).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSchedulerMessage } from '../../src/engine/scheduler-message/index.js';
import { ruleSet } from '../../src/messages/registry.js';
import type { AuditEvent, TestCluster } from './harness/index.js';
import { allowed, namespaceReadObjects, readmeRoles } from './harness/rbac.js';
import { applyScenario, captureScenarios, resetCluster, settleScenario } from './harness/scenario.js';
import { Timer, VIEWER, expectNoWrites, expectReadOnlyRules, secs, startE2eCluster } from './harness/suite.js';
import { describeRun, whyPending, type DiagnosisJson } from './harness/why-pending.js';

const TOKEN_USER = 'wp-ns-token';
const CERT_USER = 'wp-ns-cert';
const CERT_GROUP = 'team-readers';

// A plain pod, a pod with a claim (storage classes, volumes and CSI nodes are cluster-scoped
// too), and a Deployment refused at admission.
const SCENARIOS = ['taint-case-and-selector', 'wffc-local-pv', 'quota-rejects-deployment'];
const scenarios = captureScenarios().filter((s) => SCENARIOS.includes(s.name));

type Gap = DiagnosisJson['gaps'][number];

/** `resource` or `resource.group`, as why-pending and `kubectl auth can-i` name it. */
function rbacName(e: AuditEvent): string {
  const r = e.objectRef?.resource ?? '?';
  return e.objectRef?.apiGroup ? `${r}.${e.objectRef.apiGroup}` : r;
}

function scopeOf(e: AuditEvent): string {
  return e.objectRef?.namespace ? `namespace ${e.objectRef.namespace}` : 'cluster';
}

const permissionKey = (p: { verb: string; resource: string; scope: string }) => `${p.verb} ${p.resource} @ ${p.scope}`;

/** The line the human report prints for a forbidden gap (src/report/human/gaps.ts). */
const humanNeeds = (p: { verb: string; resource: string; scope: string }) =>
  `needs "${p.verb} ${p.resource}" ${p.scope === 'cluster' ? 'at cluster scope' : `in ${p.scope}`}`;

describe('a namespace-only reader gets a partial diagnosis', () => {
  let c: TestCluster;
  const lines: string[] = [];

  beforeAll(async () => {
    expectReadOnlyRules(readmeRoles().role);
    const t0 = Date.now();
    c = await startE2eCluster({ users: [{ name: TOKEN_USER }, { name: CERT_USER, auth: 'certificate', groups: [CERT_GROUP] }] });
    lines.push(`[e2e] namespace-only: control plane started in ${secs(Date.now() - t0)}`);
  });

  afterAll(async () => {
    await c?.stop();
    console.log(lines.join('\n'));
  });

  it('has its scenarios', () => {
    expect(scenarios.map((s) => s.name).sort()).toEqual([...SCENARIOS].sort());
  });

  it.each(scenarios)('$name', async (s) => {
    const timer = new Timer();
    const results: string[] = [];
    try {
      await applyScenario(c, s);
      const targets = await settleScenario(c, s);
      expect(targets).toHaveLength(1);
      const t = targets[0] as (typeof targets)[number];
      await c.apply(namespaceReadObjects(t.namespace, [TOKEN_USER, CERT_USER]));
      for (const u of [TOKEN_USER, CERT_USER]) await expectNoWrites(c, u, t.namespace);
      timer.lap('apply');
      const args = [t.query, '-n', t.namespace, '-o', 'json'];
      const full = await whyPending(c, VIEWER, args);
      expect(full.code, describeRun(full)).toBe(0);
      const fullJson = full.json as DiagnosisJson;
      expect(fullJson.gaps).toEqual([]);
      timer.lap('full reader');

      for (const user of [TOKEN_USER, CERT_USER]) {
        const u = c.users.get(user);
        if (!u) throw new Error(`no user ${user}`);
        expect(user === CERT_USER ? u.certFile : u.token, `${user} authenticates with a ${user === CERT_USER ? 'certificate' : 'token'}`).toBeTruthy();
        const saved = join(c.dir, `${s.name}-${user}.capture`);
        const run = await whyPending(c, user, [...args, '--save', saved]);
        expect(run.code, describeRun(run)).toBe(0);
        // The capture of this partial read says what was refused, and reads back the same.
        const fromCapture = await whyPending(c, undefined, [...args, '--from-dump', saved]);
        expect(fromCapture.json, 'the diagnosis from the capture of the namespace-only read').toEqual(run.json);
        const manifest = JSON.parse(readFileSync(join(saved, 'manifest.json'), 'utf8')) as { collections: Record<string, { state: string; permission?: unknown }> };
        if (t.stage !== 'AdmissionRejected') expect(manifest.collections['nodes']).toMatchObject({ state: 'refused', permission: { verb: 'list', resource: 'nodes', scope: 'cluster' } });
        expect(run.audited.length, 'the run read the cluster').toBeGreaterThan(0);
        const json = run.json as DiagnosisJson;
        expect(json.stage, 'the same stage as the full reader\'s').toBe(fullJson.stage);
        expect(run.audited.every((e) => e.user.username === user)).toBe(true);
        if (user === CERT_USER) expect(run.audited.every((e) => e.user.groups?.includes(CERT_GROUP))).toBe(true);

        // Every gap is a refusal naming a permission the user really lacks...
        const forbidden = json.gaps.filter((g): g is Gap & { permission: NonNullable<Gap['permission']> } => g.cause === 'forbidden' && !!g.permission);
        expect(forbidden, JSON.stringify(json.gaps)).toEqual(json.gaps);
        for (const g of forbidden) {
          const [resource, ...group] = g.permission.resource.split('.');
          const namespace = g.permission.scope === 'cluster' ? undefined : g.permission.scope.replace(/^namespace /, '');
          const access = { verb: g.permission.verb, resource: resource ?? '', group: group.join('.'), ...(namespace ? { namespace } : {}) };
          expect(await allowed(c, u, access), `${user} is said to lack ${permissionKey(g.permission)}`).toBe(false);
        }
        // ...and every request the apiserver refused is named by a gap, and the other way round.
        const refused = new Set(run.audited.filter((e) => e.responseStatus?.code === 403).map((e) => permissionKey({ verb: e.verb, resource: rbacName(e), scope: scopeOf(e) })));
        expect([...new Set(forbidden.map((g) => permissionKey(g.permission)))].sort()).toEqual([...refused].sort());

        if (t.stage === 'AdmissionRejected') {
          // Everything an admission refusal needs lives in the namespace.
          expect(json.gaps).toEqual([]);
          expect(json.stageDetail.failures?.map((f) => f.message)).toContain(t.failedCreate);
        } else {
          expect(forbidden.map((g) => g.permission)).toContainEqual({ verb: 'list', resource: 'nodes', scope: 'cluster' });
          // The scheduler's own account is still read...
          expect(json.scheduler.source).toBe('condition');
          expect(json.scheduler.message).toBe(t.condition?.message);
          // (nothing to agree with without nodes; -o json carries no parsed tally then)
          expect(json.scheduler.agrees).toBeNull();
          expect(json.nodes.filter((n) => n.fits), 'no node is said to fit').toEqual([]);
        }

        const human = await whyPending(c, user, [t.query, '-n', t.namespace]);
        expect(human.code, describeRun(human)).toBe(0);
        for (const g of forbidden) expect(human.stdout).toContain(humanNeeds(g.permission));
        // ...and explained: each of its reasons with the plugin it stands for.
        if (t.condition?.message) {
          const parsed = parseSchedulerMessage(ruleSet.catalog, t.condition.message);
          expect(parsed.reasons.length).toBeGreaterThan(0);
          for (const r of parsed.reasons) {
            expect(human.stdout).toContain(`${r.count} node${r.count === 1 ? '' : 's'}: ${r.text} (${r.plugin ?? '?'}:`);
          }
        }
        results.push(`${user}: ${json.stage}, gaps ${forbidden.map((g) => permissionKey(g.permission)).join(', ') || 'none'}`);
      }
      timer.lap('namespace readers');
    } finally {
      await resetCluster(c);
      timer.lap('reset');
      const line = timer.line(`namespace-only ${s.name}: ${results.join('; ') || 'failed'}`);
      lines.push(line);
      console.log(line);
    }
  });
});
