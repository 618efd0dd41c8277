// NodeDeclaredFeatures: what it checks, its messages and short forms, and the scheduler's
// wordings. The scheduler's own reason names neither the feature nor the node's list; ours do.
import rule, { type NodeDeclaredFeaturesDetail, type RequiredFeature } from '../../engine/rules/NodeDeclaredFeatures.js';
import { filterWording } from '../../engine/scheduler-message/catalog.js';
import { list, plural } from '../format.js';
import { plugin, verb } from '../plugin.js';

const needs = (r: RequiredFeature) => `${r.feature} (for ${r.field})`;

function declaredText(declared: readonly string[]): string {
  return declared.length === 0 ? 'declares no features (status.declaredFeatures lists none)' : `declares only ${list([...declared])}`;
}

const missingNames = (d: NodeDeclaredFeaturesDetail) => d.missing.map((r) => r.feature);

export default plugin(rule, {
  purpose: "the node's kubelet does not declare a feature the pod's spec needs (status.declaredFeatures)",
  wordings: [
    // nodedeclaredfeatures/nodedeclaredfeatures.go errReasonUnsatisfiedRequirements; the plugin
    // joined the default profile in v1.36 (gate NodeDeclaredFeatures beta, on; GA in v1.37).
    filterWording(/^node\(s\) didn't match Pod's required features$/, 'UnschedulableAndUnresolvable', 'v1.36+'),
    // v1.35's Filter, alpha gate off by default, named the missing features.
    filterWording(/^node declared features check failed - unsatisfied requirements: .+$/, 'UnschedulableAndUnresolvable', 'v1.35 (NodeDeclaredFeatures alpha gate)'),
  ],
  messages: {
    featureNotDeclared: (d) => `pod needs node ${d.missing.length === 1 ? 'feature' : 'features'} ${list(d.missing.map(needs))}; the node ${declaredText(d.declared)}`,
  },
  short: {
    featureNotDeclared: (d) => (d.missing.length === 1 ? `lacks ${d.missing[0]?.feature ?? ''}` : `lacks ${plural(d.missing.length, 'feature')}`),
  },
  headline: {
    featureNotDeclared: {
      key: (d) => missingNames(d).join(','),
      says: (n, [d]) => {
        const names = d ? list(missingNames(d)) : '';
        const brief = `${verb(n, 'does not declare', 'do not declare')} ${names}`;
        return { text: `${brief}, which the pod's spec needs (status.declaredFeatures)`, brief };
      },
    },
  },
});
