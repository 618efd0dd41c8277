// NodeName: a pod that names a node fits only that node. The scheduler normally never sees
// such a pod (it is bound already); the kubelet's admission runs the same check.
import { passed, type FilterRule } from '../model.js';

export interface NodeNameDetail {
  kind: 'nodeNameMismatch';
  wanted: string;
}

const rule: FilterRule<'NodeName', NodeNameDetail> = {
  meta: { name: 'NodeName', kinds: ['nodeNameMismatch'] },
  needs: () => [],
  filter({ pod }, node) {
    const wanted = pod.pod.spec?.nodeName;
    if (!wanted || wanted === node.name) return passed;
    return [{ plugin: 'NodeName', code: 'UnschedulableAndUnresolvable', detail: { kind: 'nodeNameMismatch', wanted } }];
  },
};

export default rule;
