// `kubectl why-pending mcp`: a Model Context Protocol server on stdio, for AI assistants. Two
// tools, both read-only: one diagnoses a pod (or an owner), one triages a namespace or all of
// them. They read the cluster the server was started for (--kubeconfig, --context), or a dump
// (--from-dump), and answer with the published contract as structured content (declared as
// their output schemas: schema/diagnosis.v1.json, schema/triage.v1.json) and the report's text.
// It answers through the library (src/index.ts), as the CLI does. Errors are tool errors carrying
// the CLI's one-line message; nothing is ever written.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { UsageError } from '../errors.js';
import { describeError } from '../messages/errors.js';
import { diagnose, triage } from '../index.js';
import { dumpSource } from '../sources/dump/read.js';
import type { Source } from '../sources/source.js';
import { toolVersion } from '../version.js';

/** The published schemas, beside dist/ in the package (and in the repository). */
function schema(name: string): Record<string, unknown> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const dir of [path.join(here, '..', '..', 'schema'), path.join(here, '..', 'schema'), path.join(process.cwd(), 'schema')]) {
    try {
      const parsed = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Record<string, unknown>;
      // The schema's own dialect line is left out: MCP clients validate with their own.
      const { $schema: _dialect, $id: _id, ...rest } = parsed;
      return rest;
    } catch {
      // next place
    }
  }
  return { type: 'object' };
}

interface McpFlags {
  kubeconfig?: string;
  context?: string;
  fromDump?: string;
}

function flagsFrom(args: readonly string[]): McpFlags {
  const out: McpFlags = {};
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = (args[i] ?? '').split(/=(.*)/s, 2);
    const value = () => inline ?? args[++i];
    if (flag === '--kubeconfig') out.kubeconfig = value();
    else if (flag === '--context') out.context = value();
    else if (flag === '--from-dump') out.fromDump = value();
    else throw new UsageError(`kubectl why-pending mcp: unknown flag ${flag ?? ''} (it takes --kubeconfig, --context and --from-dump)`);
  }
  // Standard input carries the protocol: a dump must be a file or a folder.
  if (out.fromDump === '-') throw new UsageError('kubectl why-pending mcp: --from-dump - would read the protocol\'s own input; give a file or a folder');
  return out;
}

async function sourceFor(flags: McpFlags, namespace: string | undefined): Promise<Source> {
  if (flags.fromDump) return dumpSource(flags.fromDump, process.stdin, namespace);
  const { liveOptionsFrom, loadConfig, liveSource } = await import('../sources/live/index.js');
  return liveSource(loadConfig(liveOptionsFrom({ ...(flags.kubeconfig ? { kubeconfig: flags.kubeconfig } : {}), ...(flags.context ? { context: flags.context } : {}), ...(namespace ? { namespace } : {}) }), process.env));
}

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

const tools = [
  {
    name: 'diagnose_pod',
    title: 'Why is this pod pending?',
    description: "Replays the Kubernetes scheduler's filters on every node for one pod (or an owner: deploy/web, sts/db, job/x) and explains, node by node, why it is pending: the stage, every node's failing plugins, near misses character by character, and fixes replayed before they are offered.",
    inputSchema: { type: 'object', properties: { namespace: { type: 'string', description: 'The namespace; default: the kubeconfig context\'s, else "default".' }, name: { type: 'string', description: 'A pod name, or kind/name of its owner.' } }, required: ['name'], additionalProperties: false },
    outputSchema: schema('diagnosis.v1.json'),
    annotations: { title: 'Diagnose a pending pod', ...readOnly },
  },
  {
    name: 'triage_pending_pods',
    title: 'Every pending pod, grouped by cause',
    description: 'Diagnoses every pending pod of a namespace (or of every namespace) and groups them by cause, each group with its first pod\'s headline and the fixes that hold for it.',
    inputSchema: { type: 'object', properties: { namespace: { type: 'string', description: 'One namespace; omit with allNamespaces for every namespace.' }, allNamespaces: { type: 'boolean' } }, additionalProperties: false },
    outputSchema: schema('triage.v1.json'),
    annotations: { title: 'Triage pending pods', ...readOnly },
  },
];

export async function runMcp(args: readonly string[]): Promise<void> {
  const flags = flagsFrom(args);
  const server = new Server({ name: 'kubectl-why-pending', version: toolVersion }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const input = (request.params.arguments ?? {}) as { namespace?: string; name?: string; allNamespaces?: boolean };
    try {
      if (request.params.name === 'diagnose_pod') {
        const source = await sourceFor(flags, input.namespace);
        const query = { namespace: input.namespace ?? source.namespace, name: input.name ?? '' };
        const result = diagnose(await source.read(query, () => undefined), query);
        if (result.kind === 'notFound') return { isError: true, content: [{ type: 'text', text: result.message }] };
        return { structuredContent: result.json as unknown as Record<string, unknown>, content: [{ type: 'text', text: result.text() }] };
      }
      if (request.params.name === 'triage_pending_pods') {
        const source = await sourceFor(flags, input.namespace);
        const scope = input.allNamespaces ? {} : { namespace: input.namespace ?? source.namespace };
        const result = triage(await source.readTriage(scope, () => undefined), scope);
        return { structuredContent: result.json as unknown as Record<string, unknown>, content: [{ type: 'text', text: result.text() }] };
      }
      return { isError: true, content: [{ type: 'text', text: `unknown tool ${request.params.name}` }] };
    } catch (error) {
      return { isError: true, content: [{ type: 'text', text: describeError(error) }] };
    }
  });
  await server.connect(new StdioServerTransport());
}
