// NodeUnschedulable: a cordoned node (spec.unschedulable) takes only pods that tolerate
// node.kubernetes.io/unschedulable:NoSchedule (DaemonSet pods get that toleration).
import { passed, type FilterRule } from '../model.js';
import { cordonTaint, toleratesAny } from '../match/tolerations.js';

export interface NodeUnschedulableDetail {
  kind: 'nodeCordoned';
}


const rule: FilterRule<'NodeUnschedulable', NodeUnschedulableDetail> = {
  // v1.37's default profile runs NodeName first; until 1.36 this ran first (default_plugins.go).
  meta: { name: 'NodeUnschedulable', kinds: ['nodeCordoned'], movedIn: { minor: 37, ranBefore: 'NodeName' } },
  needs: () => [],
  filter({ pod }, node) {
    if (!node.node.spec?.unschedulable) return passed;
    if (toleratesAny(pod.pod.spec?.tolerations ?? [], cordonTaint)) return passed;
    return [{ plugin: 'NodeUnschedulable', code: 'UnschedulableAndUnresolvable', detail: { kind: 'nodeCordoned' } }];
  },
};

export default rule;
