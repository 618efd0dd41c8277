// The published JSON contract (schema/diagnosis.v1.json), compiled once, for tests that check a
// -o json document against it. Strict mode: a keyword the schema misspells or misplaces is an
// error at compile time rather than a check that silently never runs. Only strictRequired is
// off: the conditional branches require fields (`then: { required: ["message"] }`) that the
// enclosing object defines, which is plain draft 2020-12 but not what that option accepts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { assert } from 'vitest';

const schemaPath = path.resolve(import.meta.dirname, '..', '..', 'schema', 'diagnosis.v1.json');
export const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as Record<string, unknown> & { $defs: Record<string, Record<string, unknown>> };

let compiled: ValidateFunction | undefined;

/** The validator, compiled on first use. */
export function diagnosisValidator(): ValidateFunction {
  if (!compiled) {
    const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
    addFormats.default(ajv);
    compiled = ajv.compile(schema);
  }
  return compiled;
}

/**
 * Ajv's errors, one line each: where in the document, what failed, and the value found there.
 * "must match then" is left out when the failure inside the branch is listed too.
 */
function describeErrors(errors: readonly ErrorObject[] | null | undefined, doc: unknown): string {
  const all = errors ?? [];
  const shown = all.some((e) => e.keyword !== 'if') ? all.filter((e) => e.keyword !== 'if') : all;
  return shown
    .map((e) => {
      const found = JSON.stringify(valueAt(doc, e.instancePath))?.slice(0, 120) ?? 'undefined';
      return `  ${e.instancePath || '/'}: ${e.message ?? e.keyword} ${JSON.stringify(e.params)} (schema ${e.schemaPath}; found ${found})`;
    })
    .join('\n');
}

function valueAt(doc: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((at, step) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[step] : undefined), doc);
}

/** The errors of `doc` against the schema, as describeErrors writes them; '' when it is valid. */
export function schemaErrors(doc: unknown): string {
  const validate = diagnosisValidator();
  return validate(doc) ? '' : describeErrors(validate.errors, doc);
}

/** Fails the test, listing every schema error, unless `doc` is a valid whypending/v1 document. */
export function expectValidDiagnosis(doc: unknown, what = 'the -o json document'): void {
  const errors = schemaErrors(doc);
  if (errors) assert.fail(`${what} does not match schema/diagnosis.v1.json:\n${errors}`);
}

/** The stdout of a -o json run, parsed, after checking it is a valid whypending/v1 document. */
export function parseDiagnosisJson(stdout: string, what = '-o json'): unknown {
  const doc = JSON.parse(stdout) as unknown;
  expectValidDiagnosis(doc, what);
  return doc;
}

const triageSchemaPath = path.resolve(import.meta.dirname, '..', '..', 'schema', 'triage.v1.json');
const triageSchema = JSON.parse(readFileSync(triageSchemaPath, 'utf8')) as Record<string, unknown> & { $defs: Record<string, Record<string, unknown>> };
let compiledTriage: ValidateFunction | undefined;

/** Fails the test, listing every schema error, unless `doc` is a valid triage document (schema/triage.v1.json). */
export function expectValidTriage(doc: unknown, what = 'the triage -o json document'): void {
  if (!compiledTriage) {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    compiledTriage = ajv.compile(triageSchema);
  }
  if (!compiledTriage(doc)) assert.fail(`${what} does not match schema/triage.v1.json:\n${describeErrors(compiledTriage.errors, doc)}`);
}
