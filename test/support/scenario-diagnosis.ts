// A scenario folder's pod diagnosed from its dump, for the tests that hold every folder's report
// to a property (no section contradicts another, -o markdown parses, -o yaml keeps -o json).
import { diagnose } from '../../src/engine/diagnose.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { ruleSet } from '../../src/messages/registry.js';
import { readDump } from '../../src/sources/dump/read.js';
import { readScenario, scenariosRoot } from './scenario-folders.js';

/** The diagnosis of test/scenarios/<folder>'s pod; none when the folder's pod is not found. */
export async function scenarioDiagnosis(folder: string): Promise<Diagnosis | undefined> {
  const { expected, dump } = readScenario<{ query: { namespace: string; name: string }; dump?: string }>(scenariosRoot, folder);
  const outcome = diagnose(ruleSet, await readDump(dump, process.stdin), expected.query);
  return outcome.kind === 'diagnosis' ? outcome.diagnosis : undefined;
}
