// A capture holds what the diagnosis reads: every scenario folder, read as a live read would
// have it, is written as a capture (redacted; and with names replaced) and read back, and the
// diagnosis from the capture is the diagnosis from the objects: the JSON and the wide human
// report, colour on and off. A field the engine reads that redact.ts drops fails here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diagnose } from '../../../src/engine/diagnose.js';
import { ruleSet } from '../../../src/messages/registry.js';
import { reportHuman } from '../../../src/report/human/index.js';
import { present } from '../../../src/report/present.js';
import { captureFiles, writeCapture } from '../../../src/sources/capture/write.js';
import { readDump } from '../../../src/sources/dump/read.js';
import type { Snapshot } from '../../../src/snapshot/types.js';
import { folderNames, readScenario, scenariosRoot } from '../../support/scenario-folders.js';

const folders = folderNames(scenariosRoot);
const scratch = mkdtempSync(path.join(tmpdir(), 'wp-capture-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Query {
  namespace: string;
  name: string;
}

function answers(snapshot: Snapshot, query: Query): { json: unknown; human: string[] } {
  const outcome = diagnose(ruleSet, snapshot, query);
  if (outcome.kind !== 'diagnosis') return { json: outcome, human: [] };
  const human = [false, true].map((color) => {
    let out = '';
    reportHuman(outcome.diagnosis, { write: (s) => (out += s), color, columns: 160 }, { wide: true });
    return out;
  });
  return { json: JSON.parse(JSON.stringify(present(outcome.diagnosis))) as unknown, human };
}

/** The scenario's snapshot as a live read has it: a capture records a live read. */
async function liveLike(file: string): Promise<Snapshot> {
  const snapshot = await readDump(file, process.stdin);
  return { ...snapshot, source: { kind: 'live', description: 'scenario' } };
}

/** A word, or a word ending a sentence (`node-a.`), with its real name back. */
function realWord(word: string, back: Map<string, string>): string {
  const trimmed = word.replace(/\.+$/, '');
  const real = back.get(word) ?? back.get(trimmed);
  if (real === undefined) return word;
  return back.has(word) ? real : real + word.slice(trimmed.length);
}

/** Real names back in place of pseudonyms, word by word, in every string of a value; lists sorted. */
function unname(value: unknown, back: Map<string, string>): unknown {
  if (typeof value === 'string') return value.split(/([^A-Za-z0-9.-]+)/).map((w) => realWord(w, back)).join('');
  if (Array.isArray(value)) return value.map((v) => unname(v, back)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [back.get(k) ?? k, unname(v, back)]));
  return value;
}

function sortedDeep(value: unknown): unknown {
  return unname(value, new Map());
}

/**
 * The one-line summary is composed to a length, so it words names of another length otherwise;
 * and a node name that nearly matches another cannot show once both are pseudonyms.
 */
function comparable(json: unknown, folder: string): unknown {
  const { summary: _summary, ...rest } = json as Record<string, unknown>;
  if (folder === 'nodename-lookalike' && rest['stageDetail']) rest['stageDetail'] = { ...(rest['stageDetail'] as object), nearNodes: undefined };
  return rest;
}

/** Fields kept as they are under --redact-names, or holding names of other kinds. */
const kept = new Set(['labels', 'matchLabels', 'nodeSelector', 'matchExpressions', 'nodeSelectorTerms', 'requirements', 'containers', 'initContainers', 'ephemeralContainers', 'volumes', 'containerStatuses', 'initContainerStatuses', 'serviceName', 'volumeClaimTemplates', 'taints', 'tolerations', 'apiVersion', 'uid', 'finalizers', 'priorityClassName']);

function withoutKept(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutKept);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (kept.has(k) ? [] : [[k, withoutKept(v)]])));
  return value;
}

describe('a diagnosis from a capture is the diagnosis from what was read', () => {
  for (const folder of folders) {
    it(folder, async () => {
      const { expected, dump: file } = readScenario<{ query: Query; dump?: string }>(scenariosRoot, folder);
      const read = await liveLike(file);
      const direct = answers(read, expected.query);
      const capturedAt = new Date('2026-12-05T10:00:00Z');
      const input = { snapshot: read, selection: expected.query, toolVersion: 'test', serverVersion: null, capturedAt, sent: [], lists: [] };

      const plain = captureFiles({ ...input, redactNames: false });
      const dir = path.join(scratch, folder);
      await writeCapture(dir, plain.files, capturedAt);
      const fromDir = answers(await readDump(dir, process.stdin), expected.query);
      expect(fromDir.json).toEqual(direct.json);
      expect(fromDir.human).toEqual(direct.human);

      const renamed = captureFiles({ ...input, redactNames: true });
      const archive = path.join(scratch, `${folder}.tar.gz`);
      await writeCapture(archive, renamed.files, capturedAt);
      const query = { namespace: renamed.selection.namespace ?? '', name: renamed.selection.name ?? '' };
      const fromArchive = answers(await readDump(archive, process.stdin), query);
      const back = new Map((renamed.names?.pairs() ?? []).map(([real, pseudonym]) => [pseudonym, real]));
      expect(comparable(unname(fromArchive.json, back), folder)).toEqual(comparable(sortedDeep(direct.json), folder));
      // The names are gone: no node, pod or namespace name replaced is left in the capture but
      // where the issue keeps it (labels and selectors: their characters are the diagnosis), and
      // names of other kinds (containers', volumes', priority classes') that happen to be the same.
      const pseudonyms = new Set(back.keys());
      const replaced = (renamed.names?.pairs() ?? []).map(([real]) => real).filter((real) => real.length > 3 && !pseudonyms.has(real));
      const written = renamed.files.filter((f) => f.path !== 'priorityclasses.json').map((f) => JSON.stringify(withoutKept(JSON.parse(Buffer.concat(f.pieces).toString('utf8')) as unknown))).join('\n');
      const leaked = replaced.filter((real) => new RegExp(`(^|[^A-Za-z0-9.-])${real.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9-])`).test(written));
      expect(leaked).toEqual([]);
    });
  }
});
