// `kubectl why-pending mcp --from-dump` driven by the MCP SDK's own client over stdio, on the
// README's example dump: the exchange README shows, produced here and compared line for line
// (the live server against the real control plane is test/e2e/mcp.test.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { expectValidDiagnosis } from '../support/schema.js';
import { repoRoot } from './run.js';

interface ToolResult {
  isError?: boolean;
  structuredContent?: { stage?: string; counts?: { nodes: number; fitting: number } };
  content?: { type: string; text?: string }[];
}

/** The exchange as README shows it. */
async function exchange(): Promise<{ lines: string[]; diagnosis: unknown }> {
  const transport = new StdioClientTransport({
    command: path.join(repoRoot, 'node_modules', 'node', 'bin', 'node'),
    args: [path.join(repoRoot, 'dist', 'cli', 'main.js'), 'mcp', '--from-dump', 'examples/gpu-taint-typo.yaml'],
    cwd: repoRoot,
    env: { PATH: process.env['PATH'] ?? '' },
  });
  const client = new Client({ name: 'readme', version: '1' });
  await client.connect(transport);
  try {
    const lines: string[] = [];
    const { tools } = await client.listTools();
    lines.push(`tools: ${tools.map((t) => `${t.name}${t.annotations?.readOnlyHint ? ' (read-only)' : ''}`).join(', ')}`);
    const args = { namespace: 'shop', name: 'web-0' };
    const d = (await client.callTool({ name: 'diagnose_pod', arguments: args })) as ToolResult;
    lines.push(`diagnose_pod ${JSON.stringify(args)} -> structuredContent.stage ${d.structuredContent?.stage ?? ''}, ${d.structuredContent?.counts?.fitting ?? ''} of ${d.structuredContent?.counts?.nodes ?? ''} nodes fit`);
    lines.push(`  text: ${(d.content?.[0]?.text ?? '').split('\n')[0] ?? ''}`);
    const missing = { namespace: 'shop', name: 'web-9' };
    const m = (await client.callTool({ name: 'diagnose_pod', arguments: missing })) as ToolResult;
    lines.push(`diagnose_pod ${JSON.stringify(missing)} -> ${m.isError ? 'tool error' : 'answer'}: ${m.content?.[0]?.text ?? ''}`);
    return { lines, diagnosis: d.structuredContent };
  } finally {
    await client.close();
  }
}

describe('kubectl why-pending mcp --from-dump', () => {
  it("answers as README's exchange shows, in the published contract", async () => {
    const { lines, diagnosis } = await exchange();
    expectValidDiagnosis(diagnosis, 'diagnose_pod');
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## For AI assistants (MCP)'));
    const shown = /\nAn exchange[\s\S]*?```\n([\s\S]*?)```/.exec(section)?.[1];
    expect(shown, 'README shows the exchange').toBeDefined();
    expect(`${lines.join('\n')}\n`).toBe(shown);
  });
});
