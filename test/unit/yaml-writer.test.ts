// -o yaml is written by our own writer (src/report/yaml.ts), not the yaml library's document
// model. What it must keep: the JSON's data exactly, read back by a YAML 1.2 reader and by a
// YAML 1.1 one (where `yes`, `on` and `y` are booleans), in kubectl's block layout.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ruleSet } from '../../src/messages/registry.js';
import { triage } from '../../src/engine/triage.js';
import { reportJson } from '../../src/report/json.js';
import { triageReporters } from '../../src/report/triage/index.js';
import { triageEntry } from '../../src/report/triage/group.js';
import { presentTriage } from '../../src/report/triage/present.js';
import { reportYaml, toYaml } from '../../src/report/yaml.js';
import { readDump } from '../../src/sources/dump/read.js';
import { folderNames, readScenario, scenariosRoot, triageScenariosRoot } from '../support/scenario-folders.js';
import { scenarioDiagnosis } from '../support/scenario-diagnosis.js';

const both = (text: string) => [parse(text), parse(text, { version: '1.1' })];

describe('the YAML writer', () => {
  it('writes the block layout kubectl prints', () => {
    const data = { kind: 'Diagnosis', nodes: [{ name: 'n1', reasons: ['a', 'b'], empty: [] }, [1, [2]], null], none: {}, count: 2, fits: false };
    expect(toYaml(data)).toBe(
      [
        'kind: Diagnosis',
        'nodes:',
        '  - name: n1',
        '    reasons:',
        '      - a',
        '      - b',
        '    empty: []',
        '  - - 1',
        '    - - 2',
        '  - null',
        'none: {}',
        'count: 2',
        'fits: false',
        '',
      ].join('\n'),
    );
  });

  it('quotes what a YAML 1.1 or 1.2 reader would take for another type or syntax', () => {
    const strings = ['yes', 'No', 'ON', 'off', 'y', 'N', 'null', 'Null', '~', 'true', 'False', '1', '-1', '0x1F', '1e3', '.inf', '.NaN', '1_000', '190:20:30', '2026-12-01', '<<', '', ' lead', 'trail ', 'a: b', 'a #b', '#c', '- x', '? q', '[x]', '{x}', '*a', '&a', '!t', '|', '>', '%d', '@x', '`x', "'s'", '"d"', 'tab\tin', 'line\nbreak', '100m', '1.5Gi', '5k', '1E', '1.5E', '1e3', '1.5e3', 'e0', 'E+5', '.5', '0.5', 'cpu', 'a:b', 'a:', 'http://x', 'node(s) had untolerated taint(s)', 'kubernetes.io/hostname'];
    const data = Object.fromEntries(strings.map((s, i) => [`k${i}`, s]));
    for (const read of both(toYaml(data))) expect(read).toEqual(data);
    // And as keys.
    const keyed = Object.fromEntries(strings.map((s, i) => [s, i]));
    for (const read of both(toYaml(keyed))) expect(read).toEqual(keyed);
  });

  it('leaves plain the words and quantities that are plainly so', () => {
    const data = { resource: 'cpu', request: '100m', memory: '1.5Gi', message: 'taint dedicated=gpu:NoSchedule is not tolerated', key: 'kubernetes.io/hostname' };
    expect(toYaml(data)).toBe('resource: cpu\nrequest: 100m\nmemory: 1.5Gi\nmessage: taint dedicated=gpu:NoSchedule is not tolerated\nkey: kubernetes.io/hostname\n');
  });

  it('keeps what JSON.stringify keeps: toJSON, undefined members left out, undefined items and non-finite numbers as null', () => {
    const data = { at: new Date(0), gone: undefined, f: () => 1, items: [undefined, Number.NaN, Infinity, -0], nested: { only: undefined } };
    const viaJson = JSON.parse(JSON.stringify(data)) as unknown;
    for (const read of both(toYaml(data))) expect(read).toEqual(viaJson);
    expect(toYaml(data)).toContain('nested: {}');
  });

  it('any JSON value survives', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const viaJson = JSON.parse(JSON.stringify(value)) as unknown;
        for (const read of both(toYaml(value))) expect(read).toEqual(viaJson);
      }),
      { numRuns: 300 },
    );
  });
});

describe('-o yaml holds the -o json data, for every scenario folder', () => {
  for (const folder of folderNames(scenariosRoot)) {
    it(folder, async () => {
      const d = await scenarioDiagnosis(folder);
      if (!d) return;
      let json = '';
      let yaml = '';
      reportJson(d, { write: (s) => (json += s), color: false });
      reportYaml(d, { write: (s) => (yaml += s), color: false });
      for (const read of both(yaml)) expect(read).toEqual(JSON.parse(json));
    });
  }
});

describe('a triage\'s -o yaml holds its -o json data, for every triage scenario folder', () => {
  for (const folder of folderNames(triageScenariosRoot)) {
    it(folder, async () => {
      const snapshot = await readDump(readScenario(triageScenariosRoot, folder).dump, process.stdin);
      const report = presentTriage({ scope: {}, source: snapshot.source, ...triage(ruleSet, snapshot, {}, triageEntry) });
      expect(report.groups.length).toBeGreaterThan(0);
      let json = '';
      let yaml = '';
      triageReporters.json(report, { write: (s) => (json += s), color: false });
      triageReporters.yaml(report, { write: (s) => (yaml += s), color: false });
      for (const read of both(yaml)) expect(read).toEqual(JSON.parse(json));
    });
  }
});
