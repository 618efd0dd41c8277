// The context every rule is given for one pod: its facts, every node's facts (shared by the
// pods of one read), and the pods nominated to nodes that the scheduler counts first.
import type { V1Pod } from '@kubernetes/client-node';
import type { Snapshot } from '../snapshot/types.js';
import { nodeIndex, nodeIndexWithout, podFacts } from './facts.js';
import type { RuleContext } from './model.js';
import { nominatedFor } from './nominated.js';
import { requestRulesFor } from './release.js';

export function buildContext(snapshot: Snapshot, target: V1Pod): RuleContext {
  // A bound pod is on its node's list: left out there, so it is not counted against itself.
  const nodes = target.spec?.nodeName ? nodeIndexWithout(snapshot, target) : nodeIndex(snapshot);
  const nominated = target.spec?.nodeName ? undefined : nominatedFor(snapshot, target);
  return { snapshot, pod: podFacts(target, requestRulesFor(snapshot)), nodes, ...(nominated ? { nominated } : {}) };
}
