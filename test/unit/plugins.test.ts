// Every plugin in the registry (src/messages/registry.ts) is complete: what it checks in words, at least
// one of the scheduler's wordings, and a message and a short form for every kind of detail its
// rule declares, no more. The types already refuse an incomplete descriptor (see the last
// block, which must not compile); this checks the registry as it runs, whatever casts it took.
import { describe, expect, it } from 'vitest';
import type { Detail } from '../../src/engine/model.js';
import NodePorts from '../../src/engine/rules/NodePorts.js';
import { filterWording } from '../../src/engine/scheduler-message/catalog.js';
import { plugin, type Plugin } from '../../src/messages/plugin.js';
import { filterPluginOrder, plugins, ruleSet } from '../../src/messages/registry.js';

type AnyPlugin = Plugin<string, Detail>;

/** What a descriptor lacks, one line each; empty when it is complete. */
function problemsOf(p: AnyPlugin): string[] {
  const problems: string[] = [];
  const kinds: readonly string[] = p.rule.meta.kinds;
  if (p.rule.meta.name !== p.name) problems.push(`${p.name}: its rule is named ${p.rule.meta.name}`);
  if (!p.purpose.trim()) problems.push(`${p.name}: no purpose`);
  if (p.wordings.length === 0) problems.push(`${p.name}: no scheduler wording`);
  for (const w of p.wordings) {
    if (!w.pattern.source.startsWith('^') || !w.pattern.source.endsWith('$')) problems.push(`${p.name}: wording /${w.pattern.source}/ is not anchored`);
  }
  if (kinds.length === 0) problems.push(`${p.name}: its rule declares no kind of detail`);
  const tables = { message: p.messages, 'short form': p.short } as Record<string, Record<string, unknown>>;
  for (const [what, table] of Object.entries(tables)) {
    for (const kind of kinds) if (typeof table[kind] !== 'function') problems.push(`${p.name}: no ${what} for ${kind}`);
    for (const kind of Object.keys(table)) if (!kinds.includes(kind)) problems.push(`${p.name}: a ${what} for ${kind}, which its rule does not declare`);
  }
  for (const kind of Object.keys(p.headline ?? {})) if (!kinds.includes(kind)) problems.push(`${p.name}: a headline for ${kind}, which its rule does not declare`);
  return problems;
}

const all = plugins as readonly AnyPlugin[];

describe('the registry', () => {
  it.each(all.map((p) => [p.name, p] as const))('%s is complete', (_name, p) => {
    expect(problemsOf(p)).toEqual([]);
  });

  it('names each plugin once, and each kind of detail belongs to one plugin', () => {
    expect(new Set(filterPluginOrder).size).toBe(plugins.length);
    const kinds = all.flatMap((p) => p.rule.meta.kinds);
    expect(kinds.filter((k, i) => kinds.indexOf(k) !== i)).toEqual([]);
  });

  it('gives the engine the rules in filter order, and every wording tagged with its plugin', () => {
    expect(ruleSet.rules.map((r) => r.meta.name)).toEqual(filterPluginOrder);
    // The words describe the very rule the engine runs.
    expect(plugins.map((p) => p.rule)).toEqual(ruleSet.rules);
    plugins.forEach((p, i) => expect(p.rule, p.name).toBe(ruleSet.rules[i]));
    expect(ruleSet.catalog.plugins).toEqual(filterPluginOrder);
    for (const p of plugins) {
      const tagged = ruleSet.catalog.wordings.filter((w) => w.plugin === p.name).map((w) => w.pattern);
      expect(tagged).toEqual(p.wordings.map((w) => w.pattern));
    }
  });
});

describe('an incomplete plugin', () => {
  const complete = all.find((p) => p.name === 'NodePorts') as AnyPlugin;
  const without = (change: Partial<AnyPlugin>): AnyPlugin => ({ ...complete, ...change });

  it('is caught without a wording, a short form, or a message', () => {
    expect(problemsOf(without({ wordings: [] as unknown as AnyPlugin['wordings'] }))).toEqual(['NodePorts: no scheduler wording']);
    expect(problemsOf(without({ short: {} }))).toEqual(['NodePorts: no short form for hostPortInUse']);
    expect(problemsOf(without({ messages: {} }))).toEqual(['NodePorts: no message for hostPortInUse']);
    expect(problemsOf(without({ purpose: ' ' }))).toEqual(['NodePorts: no purpose']);
  });

  it('does not compile', () => {
    const wording = filterWording(/^node\(s\) didn't have free ports for the requested pod ports$/, 'Unschedulable', 'all');
    const messages = { hostPortInUse: () => 'taken' };
    const made = [
      // @ts-expect-error a kind without a message
      plugin(NodePorts, { purpose: 'ports', wordings: [wording], messages: {}, short: { hostPortInUse: () => 'port taken' } }),
      // @ts-expect-error a kind without a short form
      plugin(NodePorts, { purpose: 'ports', wordings: [wording], messages, short: {} }),
      // @ts-expect-error no wording
      plugin(NodePorts, { purpose: 'ports', wordings: [], messages, short: { hostPortInUse: () => 'port taken' } }),
      // @ts-expect-error a message for a kind the rule does not return
      plugin(NodePorts, { purpose: 'ports', wordings: [wording], messages: { ...messages, portsExhausted: () => '' }, short: { hostPortInUse: () => 'port taken' } }),
    ];
    expect(made.map((p) => problemsOf(p as unknown as AnyPlugin).length > 0)).toEqual([true, true, true, true]);
  });
});
