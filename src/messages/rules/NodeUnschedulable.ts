// NodeUnschedulable: what it checks, its messages and short forms, and the scheduler's wordings.
import rule from '../../engine/rules/NodeUnschedulable.js';
import { filterWording } from '../../engine/scheduler-message/catalog.js';
import { plugin, verb } from '../plugin.js';

export default plugin(rule, {
  purpose: 'the node is cordoned (spec.unschedulable)',
  wordings: [
    // nodeunschedulable/node_unschedulable.go ErrReasonUnschedulable, ErrReasonUnknownCondition
    // (the legacy NodeUnschedulable / NodeUnknownCondition predicates before v1.18).
    filterWording(/^node\(s\) were unschedulable$/, 'UnschedulableAndUnresolvable', 'all'),
    filterWording(/^node\(s\) had unknown conditions$/, 'UnschedulableAndUnresolvable', 'all'),
  ],
  messages: {
    nodeCordoned: () => 'node is cordoned (spec.unschedulable) and the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule',
  },
  short: {
    nodeCordoned: () => 'cordoned',
  },
  headline: {
    nodeCordoned: { key: () => '', says: (n) => ({ text: `${verb(n, 'is', 'are')} cordoned (spec.unschedulable)` }) },
  },
});
