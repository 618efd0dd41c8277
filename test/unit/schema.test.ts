// schema/diagnosis.v1.json, the published -o json contract: a valid draft 2020-12 schema, its
// enumerations the same as the engine's types (a new stage, plugin, reason kind or note kind that
// the schema lacks fails here, or does not compile), and able to fail: wrong documents are
// rejected, each for the reason meant. Every scenario's and every CLI run's JSON is validated
// where it is made (test/scenarios.test.ts, test/cli/).
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LikelyCause } from '../../src/engine/agreement.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { filterPluginOrder, ruleSet } from '../../src/messages/registry.js';
import type { Note } from '../../src/engine/diagnosis.js';
import type { NotChecked, Verdict } from '../../src/engine/judge.js';
import type { Stage } from '../../src/engine/stage.js';
import type { Change, FixCaution, FixClass } from '../../src/engine/fixes/index.js';
import type { PluginName, StatusCode } from '../../src/engine/names.js';
import type { ReasonKind } from '../../src/engine/reasons.js';
import type { DiagnosisV1, NodeVerdictV1, ReasonV1 } from '../../src/report/contract.js';
import { present } from '../../src/report/present.js';
import { readDump } from '../../src/sources/dump/read.js';
import { collectionNames, type Gap } from '../../src/snapshot/types.js';
import { diagnosisValidator, schema, schemaErrors } from '../support/schema.js';

type Def = Record<string, unknown>;
const defs = schema.$defs;
const enumOf = (def: unknown): string[] => [...((def as { enum: string[] }).enum ?? [])].sort();
const props = (def: unknown): Record<string, unknown> => (def as { properties: Record<string, unknown> }).properties;
const sorted = (values: Iterable<string>): string[] => [...values].sort();

// Written out so that the compiler checks them against the engine's unions: a missing or an
// extra key does not compile.
const reasonKinds = {
  nodeCordoned: 'NodeUnschedulable',
  nodeNameMismatch: 'NodeName',
  untoleratedTaint: 'TaintToleration',
  nodeSelectorMismatch: 'NodeAffinity',
  requiredAffinityMismatch: 'NodeAffinity',
  outsidePreFilterNodes: 'NodeAffinity',
  affinityTermsConflict: 'NodeAffinity',
  hostPortInUse: 'NodePorts',
  insufficientResource: 'NodeResourcesFit',
  sidecarsDisabled: 'NodeResourcesFit',
  restrictionsClaimNotFound: 'VolumeRestrictions',
  diskConflict: 'VolumeRestrictions',
  readWriteOncePodInUse: 'VolumeRestrictions',
  csiVolumeLimitExceeded: 'NodeVolumeLimits',
  bindingClaimNotFound: 'VolumeBinding',
  bindingClaimLost: 'VolumeBinding',
  bindingClaimBeingDeleted: 'VolumeBinding',
  ephemeralClaimNotForPod: 'VolumeBinding',
  unboundImmediateClaims: 'VolumeBinding',
  localVolumesNoCommonNode: 'VolumeBinding',
  outsideLocalVolumeNodes: 'VolumeBinding',
  volumeNodeAffinityConflict: 'VolumeBinding',
  noAvailableVolumeToBind: 'VolumeBinding',
  boundVolumeMissing: 'VolumeBinding',
  volumeZoneLookupFailed: 'VolumeZone',
  volumeZoneConflict: 'VolumeZone',
  spreadSkewExceeded: 'PodTopologySpread',
  spreadLabelMissing: 'PodTopologySpread',
  podAffinityLabelMissing: 'InterPodAffinity',
  podAffinityUnmatched: 'InterPodAffinity',
  podAntiAffinityConflict: 'InterPodAffinity',
  existingPodAntiAffinityConflict: 'InterPodAffinity',
  resourceClaimNotCreated: 'DynamicResources',
  resourceClaimSourceMissing: 'DynamicResources',
  resourceClaimNotFound: 'DynamicResources',
  resourceClaimBeingDeleted: 'DynamicResources',
  resourceClaimNotForPod: 'DynamicResources',
  resourceClaimInUse: 'DynamicResources',
  deviceClassNotFound: 'DynamicResources',
  claimNotOnNode: 'DynamicResources',
  noDevicesOnNode: 'DynamicResources',
  devicesShort: 'DynamicResources',
  constraintUnsatisfied: 'DynamicResources',
  selectorError: 'DynamicResources',
  staleExtendedResourceClaim: 'DynamicResources',
  featureNotDeclared: 'NodeDeclaredFeatures',
} satisfies Record<ReasonKind, PluginName>;

// Every stage, checked complete against the type.
const stages = Object.keys({
  AdmissionRejected: true,
  SchedulingGated: true,
  WaitingForGang: true,
  GangUnschedulable: true,
  WaitingForDeviceBinding: true,
  NoScheduler: true,
  NodeNameSet: true,
  Unschedulable: true,
  WaitingForScaleUp: true,
  ScaleUpNotPossible: true,
  PreemptionPending: true,
  ScheduledNotRunning: true,
  NotPending: true,
} satisfies Record<Stage, true>);

const noteKinds = {
  requestExceedsEveryNode: true,
  resolvedFromOwner: true,
  otherPendingPods: true,
  noNodes: true,
  repeatedObjects: true,
  conflictingVersions: true,
} satisfies Record<Note['kind'], true>;

const likelyCauses = {
  nominatedPods: true,
  namespacesUnread: true,
  notModelled: true,
  newerThanAttempt: true,
  clusterChanged: true,
  nodeCountDiffers: true,
  unknownWording: true,
  truncatedEvent: true,
  nonDefaultScheduler: true,
  partialData: true,
  podsUnread: true,
} satisfies Record<LikelyCause, true>;

const fixChangeKinds = {
  tolerateTaint: true,
  tolerateDeviceTaint: true,
  setDeviceCapacity: true,
  setRequest: true,
  labelNodes: true,
  setNodeSelector: true,
  setAffinityExpression: true,
  removeAffinityExpressions: true,
  uncordon: true,
  preempt: true,
  waitForVictims: true,
  waitForScaleUp: true,
  honorTaintsInSpread: true,
} satisfies Record<Change['kind'], true>;

const fixClasses = { correction: true, wait: true, capacity: true, policy: true } satisfies Record<FixClass, true>;
const cautionKinds = {
  taintKeepsOthersOff: true,
  deviceTaintKeepsOthersOff: true,
  labelStatesFact: true,
  requirementDropped: true,
  selectorRetargeted: true,
  cordoned: true,
  largeCut: true,
  qosChanges: true,
} satisfies Record<FixCaution['kind'], true>;

const gapCauses = { absentFromDump: true, onlyTarget: true, forbidden: true, error: true } satisfies Record<Gap['cause'], true>;
const notCheckedCauses = { gap: true, notModelled: true, notModelledOnNodes: true } satisfies Record<NotChecked['cause'], true>;
const verdicts = { fits: true, fails: true, unproven: true } satisfies Record<Verdict, true>;
const statusCodes = { Unschedulable: true, UnschedulableAndUnresolvable: true } satisfies Record<StatusCode, true>;
const sources = { condition: true, event: true, none: true } satisfies Record<DiagnosisV1['scheduler']['source'], true>;

/** The per-cause (or per-plugin) branches: `if: { properties: { <field>: { const } } }` -> then. */
function branches(def: unknown, field: string): Map<string, Def> {
  const out = new Map<string, Def>();
  for (const entry of (def as { allOf: { if: Def; then: Def }[] }).allOf) {
    const test = props(entry.if)[field] as { const?: string } | undefined;
    if (test?.const !== undefined) out.set(test.const, entry.then);
  }
  return out;
}

describe('the schema itself', () => {
  it('is a valid draft 2020-12 schema, and compiles in strict mode', () => {
    expect(schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema['$id']).toMatch(/\/schema\/diagnosis\.v1\.json$/);
    const ajv = new Ajv2020({ strict: true, strictRequired: false });
    expect(ajv.validateSchema(schema), ajv.errorsText(ajv.errors)).toBe(true);
    expect(() => diagnosisValidator()).not.toThrow();
  });

  it('lists the top-level fields of DiagnosisV1, all required but requests', () => {
    const fields = {
      apiVersion: true,
      kind: true,
      version: true,
      summary: true,
      pod: true,
      cluster: true,
      stage: true,
      stageDetail: true,
      requests: false,
      preFilter: true,
      nodes: true,
      counts: true,
      notChecked: true,
      scheduler: true,
      ownerEvents: true,
      notes: true,
      gaps: true,
      fixes: true,
    } satisfies Record<keyof DiagnosisV1, boolean>;
    expect(sorted(Object.keys(props(schema)))).toEqual(sorted(Object.keys(fields)));
    expect(sorted(schema['required'] as string[])).toEqual(sorted(Object.entries(fields).flatMap(([k, required]) => (required ? [k] : []))));
  });

  it('enumerates what the engine can say', () => {
    expect(enumOf(defs['Stage'])).toEqual(sorted(stages));
    expect(enumOf(defs['PluginName'])).toEqual(sorted(filterPluginOrder));
    expect((defs['PluginName'] as { enum: string[] }).enum).toEqual([...filterPluginOrder]);
    expect(enumOf(defs['CollectionName'])).toEqual(sorted(collectionNames));
    expect(enumOf(defs['StatusCode'])).toEqual(sorted(Object.keys(statusCodes)));
    expect(enumOf(props(defs['NodeVerdict'])['verdict'])).toEqual(sorted(Object.keys(verdicts)));
    expect(enumOf(props(defs['Scheduler'])['source'])).toEqual(sorted(Object.keys(sources)));
    expect(enumOf((props(defs['Scheduler'])['likelyCauses'] as { items: unknown }).items)).toEqual(sorted(Object.keys(likelyCauses)));
    expect(enumOf(props(defs['Note'])['kind'])).toEqual(sorted(Object.keys(noteKinds)));
    expect(enumOf(props(defs['Gap'])['cause'])).toEqual(sorted(Object.keys(gapCauses)));
    expect(enumOf(props(defs['NotChecked'])['cause'])).toEqual(sorted(Object.keys(notCheckedCauses)));
    expect(enumOf(props(defs['FixChange'])['kind'])).toEqual(sorted(Object.keys(fixChangeKinds)));
    expect(enumOf(props(defs['Fix'])['class'])).toEqual(sorted(Object.keys(fixClasses)));
    expect(enumOf(props((props(defs['Fix'])['cautions'] as { items: unknown }).items)['kind'])).toEqual(sorted(Object.keys(cautionKinds)));
  });

  it('enumerates every reason kind, each under its own plugin', () => {
    expect(enumOf(props(defs['Reason'])['kind'])).toEqual(sorted(Object.keys(reasonKinds)));
    const byPlugin = branches(defs['Reason'], 'plugin');
    expect(sorted(byPlugin.keys())).toEqual(sorted(filterPluginOrder));
    for (const plugin of filterPluginOrder) {
      const kinds = Object.entries(reasonKinds).flatMap(([kind, p]) => (p === plugin ? [kind] : []));
      expect(enumOf(props(byPlugin.get(plugin))['kind']), plugin).toEqual(sorted(kinds));
    }
  });

  it('has a closed branch for each stage, each gap cause and each notChecked cause', () => {
    const stageDefs = (defs['StageDetail'] as { $defs: Record<string, Def> }).$defs;
    expect(sorted(Object.keys(stageDefs))).toEqual(sorted(stages));
    for (const stage of stages) expect(stageDefs[stage]?.['additionalProperties'], stage).toBe(false);
    expect(sorted(branches(schema, 'stage').keys())).toEqual(sorted(stages));
    expect(sorted(branches(defs['Gap'], 'cause').keys())).toEqual(sorted(['onlyTarget', 'forbidden', 'error']));
    expect(sorted(branches(defs['NotChecked'], 'cause').keys())).toEqual(sorted(Object.keys(notCheckedCauses)));
  });
});

// A real document to break: the README's example, one node per kind of verdict made up below.
let valid: DiagnosisV1;
beforeAll(async () => {
  const snapshot = await readDump(path.resolve(import.meta.dirname, '..', '..', 'examples', 'gpu-taint-typo.yaml'), process.stdin);
  const outcome = diagnose(ruleSet, snapshot, { namespace: 'shop', name: 'web-0' });
  if (outcome.kind !== 'diagnosis') throw new Error(`no diagnosis: ${outcome.kind}`);
  valid = JSON.parse(JSON.stringify(present(outcome.diagnosis))) as DiagnosisV1;
});

/** A copy of the valid document with one change made by `edit` (which may break its type). */
function changed(edit: (doc: DiagnosisV1) => unknown): unknown {
  const doc = structuredClone(valid);
  edit(doc);
  return JSON.parse(JSON.stringify(doc));
}

const node0 = (d: DiagnosisV1): NodeVerdictV1 => d.nodes[0]!;
const reason0 = (d: DiagnosisV1): ReasonV1 => node0(d).reasons[0]!;
const insufficient = (d: DiagnosisV1): ReasonV1 => {
  const found = d.nodes.flatMap((n) => n.reasons).find((r) => r.kind === 'insufficientResource');
  if (!found) throw new Error('the example has no insufficientResource reason');
  return found;
};

describe('documents', () => {
  it('the example validates, and holds the kinds the cases below break', () => {
    expect(schemaErrors(valid)).toBe('');
    expect(insufficient(valid)).toMatchObject({ requested: expect.stringMatching(/^[0-9]+$/) });
  });

  // Shapes no scenario reaches (the live source's gaps, notes that need a live cluster).
  it.each([
    { name: 'forbidden and failed reads', edit: (d) => Object.assign(d, { gaps: [{ collection: 'nodes', cause: 'forbidden', permission: { verb: 'list', resource: 'nodes', scope: 'cluster' } }, { collection: 'events', cause: 'error', detail: 'reading events: timeout' }] }) },
    { name: 'a note of each kind', edit: (d) => Object.assign(d, { notes: Object.keys(noteKinds).map((kind) => ({ kind, data: {} })) }) },
    { name: "the scheduler's event, not compared", edit: (d) => Object.assign(d.scheduler, { source: 'event', message: '0/5 nodes are available', agrees: null, likelyCauses: ['partialData', 'truncatedEvent'] }) },
    { name: 'an unproven node', edit: (d) => Object.assign(node0(d), { verdict: 'unproven', reasons: [], firstPlugin: undefined, unchecked: ['VolumeBinding'] }) },
    { name: 'no Pod object', edit: (d) => Object.assign(d, { pod: { namespace: 'shop', owners: [] }, requests: undefined }) },
  ] satisfies { name: string; edit: (doc: DiagnosisV1) => unknown }[])('accepts $name', ({ edit }) => {
    expect(schemaErrors(changed(edit))).toBe('');
  });

  it.each([
    { name: 'an unknown stage', edit: (d) => Object.assign(d, { stage: 'Waiting' }), path: '/stage', keyword: 'enum' },
    { name: 'no nodes', edit: (d) => delete (d as Partial<DiagnosisV1>).nodes, path: '/', keyword: 'required' },
    { name: 'an amount as a number', edit: (d) => Object.assign(insufficient(d), { requested: 2000 }), path: '/requested', keyword: 'type' },
    { name: 'an amount in Kubernetes notation', edit: (d) => Object.assign(insufficient(d), { free: '1500m' }), path: '/free', keyword: 'pattern' },
    { name: 'an unknown top-level field', edit: (d) => Object.assign(d, { extra: true }), path: '/', keyword: 'additionalProperties' },
    { name: 'another apiVersion', edit: (d) => Object.assign(d, { apiVersion: 'whypending/v2' }), path: '/apiVersion', keyword: 'const' },
    { name: 'a stage detail of another stage', edit: (d) => Object.assign(d, { stageDetail: { stage: 'SchedulingGated', gates: ['a'] } }), path: '/stageDetail/stage', keyword: 'const' },
    { name: 'a reason kind of another plugin', edit: (d) => Object.assign(reason0(d), { kind: 'insufficientResource' }), path: '/nodes/0/reasons/0/kind', keyword: 'enum' },
    { name: 'a reason without its message', edit: (d) => delete (reason0(d) as Partial<ReasonV1>).message, path: '/nodes/0/reasons/0', keyword: 'required' },
    { name: 'an unknown status code', edit: (d) => Object.assign(reason0(d), { code: 'Error' }), path: '/nodes/0/reasons/0/code', keyword: 'enum' },
    { name: 'fits with a failing verdict', edit: (d) => Object.assign(node0(d), { fits: true }), path: '/nodes/0/fits', keyword: 'const' },
    { name: 'a fit with reasons', edit: (d) => Object.assign(node0(d), { fits: true, verdict: 'fits' }), path: '/nodes/0/reasons', keyword: 'maxItems' },
    { name: 'unproven without unchecked plugins', edit: (d) => Object.assign(node0(d), { verdict: 'unproven', reasons: [], firstPlugin: undefined }), path: '/nodes/0', keyword: 'required' },
    { name: 'an unknown likely cause', edit: (d) => Object.assign(d.scheduler, { likelyCauses: ['moonPhase'] }), path: '/scheduler/likelyCauses/0', keyword: 'enum' },
    { name: 'agrees as a string', edit: (d) => Object.assign(d.scheduler, { agrees: 'yes' }), path: '/scheduler/agrees', keyword: 'type' },
    { name: 'an unknown gap cause', edit: (d) => Object.assign(d, { gaps: [{ collection: 'pods', cause: 'lost' }] }), path: '/gaps/0/cause', keyword: 'enum' },
    { name: 'a forbidden gap without its permission', edit: (d) => Object.assign(d, { gaps: [{ collection: 'pods', cause: 'forbidden' }] }), path: '/gaps/0', keyword: 'required' },
    { name: 'a gap of an unknown collection', edit: (d) => Object.assign(d, { gaps: [{ collection: 'secrets', cause: 'absentFromDump' }] }), path: '/gaps/0/collection', keyword: 'enum' },
    { name: 'an unknown notChecked cause', edit: (d) => Object.assign(d, { notChecked: [{ plugin: 'VolumeBinding', cause: 'tired' }] }), path: '/notChecked/0/cause', keyword: 'enum' },
    { name: 'a note of an unknown kind', edit: (d) => Object.assign(d, { notes: [{ kind: 'gossip', data: {} }] }), path: '/notes/0/kind', keyword: 'enum' },
    { name: 'a byFirstPlugin key that is no plugin', edit: (d) => Object.assign(d.counts, { byFirstPlugin: { Taints: 1 } }), path: '/counts/byFirstPlugin', keyword: 'propertyNames' },
  ] satisfies { name: string; edit: (doc: DiagnosisV1) => unknown; path: string; keyword: string }[])('rejects $name', ({ edit, path: at, keyword }) => {
    const doc = changed(edit);
    const validate = diagnosisValidator();
    expect(validate(doc)).toBe(false);
    const found = (validate.errors ?? []).map((e) => ({ at: e.instancePath || '/', keyword: e.keyword }));
    expect(found.some((e) => (at === '/' ? e.at === '/' : e.at.endsWith(at)) && e.keyword === keyword), JSON.stringify(found)).toBe(true);
  });
});
