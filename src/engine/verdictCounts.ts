// A verdict array's counts: how many nodes fit, are unproven, fail first on each plugin, and
// whether the request exceeds every node. The diagnosis reports them and the comparison with the
// scheduler's message reads the fitting count; the pods of one equivalence class share one
// verdict array, so a triage of 5,000 pods counts each class's once.
import type { NodeVerdict } from './judge.js';
import type { PluginName } from './names.js';

export interface VerdictCounts {
  fitting: number;
  unproven: number;
  byFirstPlugin: Partial<Record<PluginName, number>>;
  exceedEverywhere: boolean;
}

// The pods of one class share their verdicts (the same array), and so their counts; kept by the
// verdicts, not the class, since a pod of the class in a stage that judges no node has none.
const countsOf = new WeakMap<readonly NodeVerdict[], VerdictCounts>();

/** How many nodes fit, are unproven, and fail first on each plugin; whether the request exceeds every node. */
export function countVerdicts(nodes: readonly NodeVerdict[]): VerdictCounts {
  let counts = countsOf.get(nodes);
  if (!counts) {
    counts = countOnce(nodes);
    countsOf.set(nodes, counts);
  }
  return counts;
}

function countOnce(nodes: readonly NodeVerdict[]): VerdictCounts {
  // One pass over 5,000 verdicts, indexed (it runs once, before V8 compiles it).
  let fitting = 0;
  let unproven = 0;
  let exceedEverywhere = nodes.length > 0;
  const byFirstPlugin: Partial<Record<PluginName, number>> = {};
  // Nodes of one class share their list of reasons: a run of them is counted at once.
  let run: NodeVerdict['reasons'] | undefined;
  let runLength = 0;
  const endRun = () => {
    const first = run?.[0];
    if (first) byFirstPlugin[first.plugin] = (byFirstPlugin[first.plugin] ?? 0) + runLength;
  };
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as NodeVerdict;
    if (node.verdict === 'fits') fitting++;
    else if (node.verdict === 'unproven') unproven++;
    if (node.reasons === run) {
      runLength++;
      continue;
    }
    endRun();
    run = node.reasons;
    runLength = 1;
    if (exceedEverywhere && !exceedsAllocatable(node.reasons)) exceedEverywhere = false;
  }
  endRun();
  return { fitting, unproven, byFirstPlugin, exceedEverywhere };
}

/** A reason of the node says the request is larger than its whole allocatable. */
function exceedsAllocatable(reasons: NodeVerdict['reasons']): boolean {
  for (let i = 0; i < reasons.length; i++) {
    const detail = (reasons[i] as NodeVerdict['reasons'][number]).detail;
    if (detail.kind === 'insufficientResource' && detail.exceedsAllocatable) return true;
  }
  return false;
}
