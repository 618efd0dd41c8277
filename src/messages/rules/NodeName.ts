// NodeName: what it checks, its messages and short forms, and the scheduler's wordings.
import rule from '../../engine/rules/NodeName.js';
import { filterWording } from '../../engine/scheduler-message/catalog.js';
import { quote } from '../format.js';
import { plugin, verb } from '../plugin.js';

export default plugin(rule, {
  purpose: 'the pod names another node in spec.nodeName',
  wordings: [
    // nodename/node_name.go ErrReason; the legacy HostName predicate said "hostname".
    filterWording(/^node\(s\) didn't match the requested node name$/, 'UnschedulableAndUnresolvable', 'v1.18+'),
    filterWording(/^node\(s\) didn't match the requested hostname$/, 'UnschedulableAndUnresolvable', '<= v1.17 (HostName predicate)'),
  ],
  messages: {
    nodeNameMismatch: (d) => `pod asks for node ${quote(d.wanted)}`,
  },
  short: {
    nodeNameMismatch: (d) => `wants ${d.wanted}`,
  },
  headline: {
    nodeNameMismatch: { key: (d) => d.wanted, says: (n, [d]) => ({ text: `${verb(n, 'is not', 'are not')} ${quote(d?.wanted ?? '')}, the node its spec.nodeName names` }) },
  },
});
