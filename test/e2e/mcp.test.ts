// `kubectl why-pending mcp` on a real control plane, driven by the MCP SDK's own client over
// stdio: it lists two read-only tools whose output schemas are the published contracts, the
// diagnosis and the triage validate against them, a namespace-only user gets the gaps in the
// answer (not an error), a pod that does not exist is a tool error with the CLI's one line, and
// the server sent the apiserver nothing but reads (audit log).
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidDiagnosis, expectValidTriage } from '../support/schema.js';
import { requests, writes } from './harness/audit.js';
import type { TestCluster } from './harness/index.js';
import { namespaceReadObjects } from './harness/rbac.js';
import { applyScenario, captureScenarios, settleScenario } from './harness/scenario.js';
import { VIEWER, startE2eCluster } from './harness/suite.js';
import { assertBuilt } from './harness/why-pending.js';

const NS_USER = 'wp-mcp-ns';
const repo = join(import.meta.dirname, '..', '..');
let c: TestCluster;

beforeAll(async () => {
  assertBuilt();
  c = await startE2eCluster({ users: [{ name: NS_USER }] });
  const scenario = captureScenarios().find((s) => s.name === 'taint-case-and-selector');
  if (!scenario) throw new Error('scenario taint-case-and-selector is missing');
  await applyScenario(c, scenario);
  await settleScenario(c, scenario);
  await c.apply(namespaceReadObjects('shop', [NS_USER]));
}, 180_000);

afterAll(async () => {
  await c?.stop();
});

async function connect(user: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: join(repo, 'node_modules', 'node', 'bin', 'node'),
    args: [join(repo, 'dist', 'cli', 'main.js'), 'mcp', '--kubeconfig', c.kubeconfigFor(user)],
    env: { PATH: process.env['PATH'] ?? '' },
  });
  const client = new Client({ name: 'why-pending-e2e', version: '1' });
  await client.connect(transport);
  return client;
}

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: { type: string; text?: string }[];
}

describe('kubectl why-pending mcp, with the MCP SDK client over stdio', () => {
  it('offers two read-only tools whose output schemas are the published contracts', async () => {
    const client = await connect(VIEWER);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['diagnose_pod', 'triage_pending_pods']);
      for (const t of tools) expect(t.annotations?.readOnlyHint).toBe(true);
      expect(JSON.stringify(tools.find((t) => t.name === 'diagnose_pod')?.outputSchema)).toContain('"Diagnosis"');
    } finally {
      await client.close();
    }
  });

  it('diagnoses and triages the live cluster, in the contract and in words, sending only reads', async () => {
    const mark = c.audit.mark();
    const client = await connect(VIEWER);
    try {
      const d = (await client.callTool({ name: 'diagnose_pod', arguments: { namespace: 'shop', name: 'web-0' } })) as ToolResult;
      expect(d.isError).toBeFalsy();
      expectValidDiagnosis(d.structuredContent, 'diagnose_pod');
      expect(d.structuredContent?.['stage']).toBe('Unschedulable');
      expect(d.content?.[0]?.text).toContain('Pod shop/web-0');
      const t = (await client.callTool({ name: 'triage_pending_pods', arguments: { namespace: 'shop' } })) as ToolResult;
      expect(t.isError).toBeFalsy();
      expectValidTriage(t.structuredContent, 'triage_pending_pods');
      expect((t.structuredContent?.['counts'] as { pending: number }).pending).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
    const sent = requests(await c.audit.settle(c.clientFor(VIEWER), VIEWER, mark));
    expect(sent.length).toBeGreaterThan(0);
    expect(writes(sent)).toEqual([]);
  });

  it("gives a namespace-only user the gaps in the answer, and a missing pod a tool error with the CLI's line", async () => {
    const client = await connect(NS_USER);
    try {
      const d = (await client.callTool({ name: 'diagnose_pod', arguments: { namespace: 'shop', name: 'web-0' } })) as ToolResult;
      expect(d.isError).toBeFalsy();
      expectValidDiagnosis(d.structuredContent, 'diagnose_pod as a namespace-only user');
      const gaps = d.structuredContent?.['gaps'] as { collection: string; cause: string }[];
      expect(gaps.some((g) => g.collection === 'nodes' && g.cause === 'forbidden')).toBe(true);
      const missing = (await client.callTool({ name: 'diagnose_pod', arguments: { namespace: 'shop', name: 'no-such-pod' } })) as ToolResult;
      expect(missing.isError).toBe(true);
      expect(missing.content?.[0]?.text).toMatch(/^pod "no-such-pod" not found in namespace "shop"/);
    } finally {
      await client.close();
    }
  });
});
