// No string from a dump reaches the human report raw: any string field (or label, annotation or
// selector key) of a dump replaced by one full of terminal controls gives a report where the only
// controls are our own line feeds and, with colour on, the palette's colours; and a line feed in
// the string never starts a new line of the report. -o json and -o yaml keep the exact data.
// FC_RUNS=5000 searches longer than the default.
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { diagnose } from '../../src/engine/diagnose.js';
import { ruleSet } from '../../src/messages/registry.js';
import { InputError } from '../../src/errors.js';
import { palette } from '../../src/report/color.js';
import { reportHuman } from '../../src/report/human/index.js';
import { reportJson } from '../../src/report/json.js';
import { reportYaml } from '../../src/report/yaml.js';
import { readDump } from '../../src/sources/dump/read.js';
import { loadCase, renameAt, setAt, valueAt } from '../support/dump-cases.js';
import { expectValidDiagnosis } from '../support/schema.js';

const ESC = '\u001b';
const BEL = '\u0007';
const forbidden = /(?!\n)[\p{Cc}\p{Bidi_Control}\u2028\u2029]/u;
const MARK = 'MARK';

// Every hostile string has a line feed right before MARK: a report line that starts with MARK
// means a line feed from the dump was written raw.
const hostile = fc
  .tuple(
    fc.array(fc.constantFrom(`${ESC}]0;pwned${BEL}`, `${ESC}[2J`, `${ESC}[31m`, '\r', '\t', '\u202E', '\u2066', '\u0085', '\u009b31m', '\u0000', '\u007f', '\u2028', 'web', ' '), { maxLength: 4 }),
    fc.array(fc.constantFrom(`${ESC}[H`, '\r\n', '\u202D', '\u061C', '\u200F', 'x'), { maxLength: 3 }),
  )
  .map(([before, after]) => `${before.join('')}\n${MARK}${after.join('')}`);

const mapsWithKeys = new Set(['labels', 'annotations', 'nodeSelector', 'matchLabels']);

const cases = ['every-field', 'hostile-terminal-controls', 'hostile-terminal-controls-scheduled', 'taint-value-letter-case', 'admission-quota-exceeded', 'anti-affinity-hostname', 'wffc-no-matching-pv'];

describe('a dump full of terminal controls gives a report without any', () => {
  it.each(cases)('%s', async (name) => {
    const dump = loadCase(name);
    const strings = dump.paths.filter(({ item, steps }) => typeof valueAt(dump.items[item], steps) === 'string');
    const keys = dump.paths.filter(({ steps }) => mapsWithKeys.has(String(steps[steps.length - 2])));
    const target = fc.oneof(
      fc.record({ at: fc.nat({ max: strings.length - 1 }), rename: fc.constant(false), text: hostile }),
      fc.record({ at: fc.nat({ max: Math.max(keys.length - 1, 0) }), rename: fc.constant(true), text: hostile }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(target, { minLength: 1, maxLength: 3 }), async (changes) => {
        const items = structuredClone(dump.items);
        for (const { at, rename, text } of changes) {
          const where = rename ? keys[at] : strings[at];
          if (!where) continue;
          if (rename) renameAt(items[where.item], where.steps, text);
          else setAt(items[where.item], where.steps, text);
        }
        let snapshot;
        try {
          snapshot = await readDump('-', Readable.from([JSON.stringify({ apiVersion: 'v1', kind: 'List', items })]));
        } catch (error) {
          if (error instanceof InputError) return; // a quantity that no longer parses, say
          throw error;
        }
        let outcome;
        try {
          outcome = diagnose(ruleSet, snapshot, dump.query);
        } catch (error) {
          if (error instanceof InputError) return;
          throw error;
        }
        if (outcome.kind !== 'diagnosis') return;
        const d = outcome.diagnosis;
        for (const [color, wide] of [[false, false], [false, true], [true, false]] as const) {
          let text = '';
          reportHuman(d, { write: (s) => (text += s), color, columns: color ? 70 : 200 }, { wide });
          const bare = palette(color).sequences.reduce((acc, seq) => acc.split(seq).join(''), text);
          expect(bare).not.toMatch(forbidden);
          expect(text).not.toMatch(new RegExp(`^\\s*${MARK}`, 'm'));
        }
        let json = '';
        reportJson(d, { write: (s) => (json += s), color: false });
        expect(json).not.toMatch(forbidden);
        let yaml = '';
        reportYaml(d, { write: (s) => (yaml += s), color: false });
        expect(yaml).not.toMatch(forbidden);
        expect(parse(yaml)).toEqual(JSON.parse(json));
        // Hostile strings anywhere keep the published contract.
        expectValidDiagnosis(JSON.parse(json));
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 40) },
    );
  });
});
