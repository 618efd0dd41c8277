// Runs every whole-cluster scenario under test/scenarios/: each folder holds a dump
// (cluster.yaml) and the expected diagnosis (expected.yaml). A new case is a new folder.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { diagnose } from '../src/engine/diagnose.js';
import { headlineLimit } from '../src/messages/limits.js';
import { ruleSet } from '../src/messages/registry.js';
import { reportHuman } from '../src/report/human/index.js';
import { present } from '../src/report/present.js';
import { readDump } from '../src/sources/dump/read.js';
import { comparableFirstPlugin, nodeVerdict, type Verdict } from './support/probe-verdict.js';
import { folderNames, readScenario, scenariosRoot } from './support/scenario-folders.js';
import { expectValidDiagnosis } from './support/schema.js';

interface Expected {
  description: string;
  query: { namespace: string; name: string };
  stage: string;
  /** Node name -> the plugins that reject it, in filter order; [] means it fits. */
  nodes?: Record<string, string[]>;
  /** Node name -> the plugin the real scheduler reported for that node alone (captured scenarios). */
  firstPlugins?: Record<string, string>;
  preFilter?: string[];
  scheduler?: { agrees: boolean | null; source?: string };
  /** A subset of the -o json output that must match. */
  json?: Record<string, unknown>;
  /** Text the human report must contain. */
  contains?: string[];
  /** Text the human report must not contain (a cause drawn from a gap, say). */
  absent?: string[];
  /** Set when the scheduler's messages were captured from a real control plane (version). */
  capturedFrom?: string;
  /** The dump, when it is not this folder's cluster.yaml (the README's bundled example). */
  dump?: string;
}

/** probes.yaml of captured scenarios: the raw PodScheduled condition of each node's probe. */
interface Probes {
  kubernetesVersion: string;
  pin: 'affinity' | 'cordon';
  totalNodes: number;
  nodes: Record<string, Verdict>;
}

const root = scenariosRoot;
function readProbes(dir: string): Probes | undefined {
  const file = path.join(dir, 'probes.yaml');
  return existsSync(file) ? (parse(readFileSync(file, 'utf8')) as Probes) : undefined;
}

const folders = folderNames(root);

function pluginsOf(reasons: { plugin: string }[]): string[] {
  const out: string[] = [];
  for (const r of reasons) if (out[out.length - 1] !== r.plugin) out.push(r.plugin);
  return out;
}

describe('whole-cluster scenarios', () => {
  it('has at least 30 scenarios', () => {
    expect(folders.length).toBeGreaterThanOrEqual(30);
  });

  it.each(folders)('%s', async (folder) => {
    const { dir, expected, dump } = readScenario<Expected>(root, folder);
    const snapshot = await readDump(dump, process.stdin);
    const outcome = diagnose(ruleSet, snapshot, expected.query);
    if (outcome.kind !== 'diagnosis') throw new Error(`${folder}: no diagnosis (${outcome.kind})`);
    const d = outcome.diagnosis;
    expect(d.stage).toBe(expected.stage);
    if (expected.nodes) {
      const actual = Object.fromEntries(d.nodes.map((n) => [n.name, pluginsOf(n.reasons)]));
      expect(actual).toEqual(expected.nodes);
    }
    if (expected.firstPlugins) {
      const want = expected.firstPlugins;
      const actual = Object.fromEntries(d.nodes.map((n) => [n.name, comparableFirstPlugin(n.reasons[0]?.plugin ?? 'fits', n.unchecked, want[n.name] ?? '')]));
      expect(actual).toEqual(want);
    }
    if (expected.preFilter) expect(d.preFilter.map((r) => r.plugin)).toEqual(expected.preFilter);
    // A capture that holds the control plane's version is replayed with that release's rules.
    if (expected.capturedFrom && d.cluster.version !== undefined) {
      expect(d.cluster.version).toBe(expected.capturedFrom);
      expect(d.cluster.rulesOf).toBe(/^v(1\.\d+)/.exec(expected.capturedFrom)?.[1]);
    }
    // Captured: the scheduler's own per-node verdicts, read with the test-side reason table.
    const probes = readProbes(dir);
    if (probes) {
      const verdicts = Object.entries(probes.nodes).map(([node, v]) => [node, nodeVerdict(node, v, probes.totalNodes, probes.pin)] as const);
      const preFilters = [...new Set(verdicts.flatMap(([, v]) => ('preFilter' in v ? [v.preFilter] : [])))];
      if (preFilters.length > 0) expect(d.preFilter.map((r) => r.plugin)).toEqual(preFilters);
      else {
        const scheduler = Object.fromEntries(verdicts.map(([node, v]) => [node, 'plugin' in v ? v.plugin : '']));
        expect(Object.fromEntries(d.nodes.map((n) => [n.name, comparableFirstPlugin(n.reasons[0]?.plugin ?? 'fits', n.unchecked, scheduler[n.name] ?? '')]))).toEqual(scheduler);
        for (const n of d.nodes) if (scheduler[n.name] !== 'fits') expect(n.fits, `${n.name} fits, the scheduler said ${scheduler[n.name] ?? ''}`).toBe(false);
      }
    }
    if (expected.scheduler) {
      expect(d.scheduler.agrees).toBe(expected.scheduler.agrees);
      if (expected.scheduler.source) expect(d.scheduler.source).toBe(expected.scheduler.source);
    }
    // Every scenario's -o json document is a valid whypending/v1 one.
    const json = JSON.parse(JSON.stringify(present(d))) as Record<string, unknown>;
    expectValidDiagnosis(json, `${folder}: -o json`);
    if (expected.json) expect(json).toMatchObject(expected.json);
    // The first line fits what a person reads at a glance (issue 8: at most 240 characters).
    expect((json.summary as string).length).toBeLessThanOrEqual(headlineLimit);
    if (expected.contains || expected.absent) {
      let text = '';
      reportHuman(d, { write: (s) => (text += s), color: false, columns: 200 }, { wide: false });
      for (const needle of expected.contains ?? []) expect(text).toContain(needle);
      for (const needle of expected.absent ?? []) expect(text).not.toContain(needle);
    }
  });
});
