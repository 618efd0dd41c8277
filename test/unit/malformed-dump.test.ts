// Weird but readable input never crashes: a field of a scenario's objects replaced by a value
// of another type (a string, a number, null, a list, a map, or removed), or by an odd value of
// its own type, either still gives a diagnosis and every report, or is an InputError naming the
// field (src/sources/dump/validate.ts). Any other error is a bug the user would see as
// "internal error". The default number of runs keeps the unit suite quick; FC_RUNS=5000 searches longer.
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { ruleSet } from '../../src/messages/registry.js';
import { InputError } from '../../src/errors.js';
import { reportHuman } from '../../src/report/human/index.js';
import { reportJson } from '../../src/report/json.js';
import { reportYaml } from '../../src/report/yaml.js';
import { readDump } from '../../src/sources/dump/read.js';
import { loadCase, REMOVE, setAt, valueAt, type DumpCase } from '../support/dump-cases.js';

// Scenarios that between them reach every rule and every stage, and a dump that sets every field
// the engine reads (test/support/every-field.yaml): a field no input sets, no mutation reaches.
const scenarios = [
  'every-field',
  'many-reasons-one-node',
  'anti-affinity-hostname',
  'pod-affinity-no-match',
  'captured-topology-spread-zones',
  'host-port-conflict',
  'csi-volume-limit',
  'pv-zone-bound-volume',
  'wffc-no-matching-pv',
  'rwop-claim-in-use',
  'sidecar-request-pushes-over',
  'pod-level-resources',
  'limits-only-requests',
  'captured-limitrange-defaults',
  'matchfields-prefilter',
  'nodename-set-missing-node',
  'preemption-pending',
  // A victim terminating with its grace period and finalizers.
  'story-preemption-victims',
  'scheduled-not-running-image-pull',
  'admission-quota-exceeded',
  'owner-deployment-to-pending-pod',
  'scheduling-gated',
  'taint-value-letter-case',
  'hostile-terminal-controls',
  // Autoscaler events and cluster-autoscaler's status ConfigMap (its data.status, a ConfigMap
  // that is not its status): every autoscaler stage.
  'ca-scale-up-backoff',
  'ca-not-triggered-disagrees',
  'captured-1.37-karpenter-taint-typo',
  'captured-1.37-karpenter-nominated',
  'captured-1.37-karpenter-limit',
  'captured-1.37-karpenter-nodepool-not-ready',
];

const replacement = fc.oneof(
  fc.constant(REMOVE),
  fc.constant(null),
  fc.string({ maxLength: 6 }),
  fc.constantFrom('', '0', '-1', '1e400', '1Gi', 'True', 'NoSchedule', 'In'),
  fc.integer({ min: -3, max: 3 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant([]),
  fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(null), fc.constant({})), { minLength: 1, maxLength: 2 }),
  fc.constant({}),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(null)), { minKeys: 1, maxKeys: 2 }),
);

// Values of the right type that an engine could still trip on: empty, blank, operators and
// effects out of place, quantities at the edges, numbers that are not counts.
const oddString = fc.oneof(
  fc.constantFrom('', ' ', '\t', 'In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt', 'Equal', 'NoSchedule', 'NoExecute', 'PreferNoSchedule', 'Always', 'WaitForFirstConsumer', 'Immediate', 'Pending', 'Bound', 'Lost', 'Available'),
  fc.constantFrom('0', '-1', '1e400', '1e-400', '9Ei', '0.000000001', 'Ki', 'metadata.name', 'kubernetes.io/hostname', 'a__b', '__', 'constructor', '__proto__', '\u202E\u001b[2J', 'ReadWriteOncePod'),
  fc.string({ maxLength: 4 }),
);
const oddNumber = fc.oneof(fc.constantFrom(0, -1, 1, 0.5, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308), fc.integer());

async function diagnoseAndReport(items: unknown[], query: DumpCase['query']): Promise<void> {
  const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
  const snapshot = await readDump('-', Readable.from([text]));
  const outcome = diagnose(ruleSet, snapshot, query);
  if (outcome.kind !== 'diagnosis') return;
  const sink = { write: () => undefined };
  reportHuman(outcome.diagnosis, { ...sink, color: true, columns: 60 }, { wide: false });
  reportHuman(outcome.diagnosis, { ...sink, color: false }, { wide: true });
  reportJson(outcome.diagnosis, { ...sink, color: false });
  reportYaml(outcome.diagnosis, { ...sink, color: false });
}

function check(name: string, scenario: DumpCase, items: unknown[], describeMutation: () => string[]) {
  return diagnoseAndReport(items, scenario.query).catch((error: unknown) => {
    if (error instanceof InputError) {
      expect(error.message.split('\n')).toHaveLength(1);
      return;
    }
    throw new Error(`${name}: ${describeMutation().join('; ')}: ${(error as Error).stack ?? String(error)}`);
  });
}

const runs = { numRuns: Number(process.env['FC_RUNS'] ?? 30) };

describe('a field of the wrong type is an input error or nothing, never a crash', () => {
  it.each(scenarios)('%s', async (name) => {
    const scenario = loadCase(name);
    await diagnoseAndReport(scenario.items, scenario.query); // the scenario itself is fine
    const mutation = fc.record({ at: fc.nat({ max: scenario.paths.length - 1 }), value: replacement });
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
        const items = structuredClone(scenario.items);
        for (const { at, value } of mutations) {
          const target = scenario.paths[at];
          if (target) setAt(items[target.item], target.steps, value);
        }
        const where = () => mutations.map(({ at, value }) => `${scenario.paths[at]?.steps.join('.')} = ${value === REMOVE ? '<removed>' : JSON.stringify(value)}`);
        await check(name, scenario, items, where);
      }),
      runs,
    );
  });
});

describe('a value of the right type but odd is an input error or nothing, never a crash', () => {
  it.each(scenarios)('%s', async (name) => {
    const scenario = loadCase(name);
    // Only leaves: strings get odd strings, numbers odd numbers, booleans the other one.
    const leaves = scenario.paths.filter(({ item, steps }) => ['string', 'number', 'boolean'].includes(typeof valueAt(scenario.items[item], steps)));
    const mutation = fc.record({ at: fc.nat({ max: leaves.length - 1 }), text: oddString, num: oddNumber });
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (mutations) => {
        const items = structuredClone(scenario.items);
        const done: string[] = [];
        for (const { at, text, num } of mutations) {
          const target = leaves[at];
          if (!target) continue;
          const current = valueAt(items[target.item], target.steps);
          const value = typeof current === 'string' ? text : typeof current === 'number' ? num : !current;
          setAt(items[target.item], target.steps, value);
          done.push(`${target.steps.join('.')} = ${JSON.stringify(value)}`);
        }
        await check(name, scenario, items, () => done);
      }),
      runs,
    );
  });
});

