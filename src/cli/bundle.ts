// The entry of dist/kubectl-why_pending.cjs, the CLI as one CommonJS file, which the launcher
// (launch.ts) runs with V8's code cache. Nothing runs when it loads: `cli` starts the CLI, as
// dist/cli/main.js does; `engine` is the same engine for test/bench/live/cold.ts, which times a
// diagnosis as the CLI runs it. Both import lazily, so that completion loads neither the engine
// nor the report.
import type { LaunchHooks } from './codeCache.js';
import { launchHooks } from './hooks.js';

export function cli(hooks: LaunchHooks): Promise<unknown> {
  Object.assign(launchHooks, hooks);
  return import('./main.js');
}

export async function engine() {
  const [{ diagnose }, { nodeIndex }, { ruleSet }, { diagnosisCoverage }] = await Promise.all([import('../engine/diagnose.js'), import('../engine/facts.js'), import('../messages/registry.js'), import('./coverage.js')]);
  return { diagnose, nodeIndex, ruleSet, diagnosisCoverage };
}
