// PodTopologySpread: what it checks, its messages (the constraint, the node's domain, the counts
// and the skew) and short forms, and the scheduler's wordings.
import rule, { type DomainCount, type PodTopologySpreadDetail, type SpreadConstraintRef } from '../../engine/rules/PodTopologySpread.js';
import { filterWording } from '../../engine/scheduler-message/catalog.js';
import { list, plural, quote } from '../format.js';
import { plugin, verb } from '../plugin.js';

export function selectorText(selector: string | null): string {
  if (selector === null) return 'no selector (matches no pod)';
  return selector === '' ? 'an empty selector (matches every pod)' : selector;
}

function constraintText(c: SpreadConstraintRef): string {
  const minDomains = c.minDomains > 1 ? `, minDomains ${c.minDomains}` : '';
  return `spread constraint ${c.index + 1} (${c.topologyKey}, maxSkew ${c.maxSkew}${minDomains}, pods ${selectorText(c.selector)})`;
}

function countsText(counts: readonly DomainCount[], total: number): string {
  const shown = counts.map((c) => `${c.domain}=${c.pods}`).join(', ');
  return counts.length < total ? `${shown} (${counts.length} of ${total} domains shown)` : shown;
}

/** Why the skew exceeds maxSkew, when only minDomains or untolerable domains make it. */
function onlyText(d: Extract<PodTopologySpreadDetail, { kind: 'spreadSkewExceeded' }>): string {
  if (d.onlyTaintedDomains) {
    return `; only because ${d.onlyTaintedDomains.length === 1 ? 'domain' : 'domains'} ${list(d.onlyTaintedDomains)} count, whose nodes all carry taints this pod does not tolerate (nodeTaintsPolicy: ${d.constraint.nodeTaintsPolicy}; Honor leaves them out)`;
  }
  return d.onlyMinDomains ? `; only because ${plural(d.domainCount, 'domain')} ${d.domainCount === 1 ? 'is' : 'are'} fewer than minDomains ${d.constraint.minDomains}` : '';
}

export default plugin(rule, {
  purpose: "placing the pod on the node would break a topology spread constraint's maxSkew",
  wordings: [
    // podtopologyspread/filtering.go ErrReasonConstraintsNotMatch, ErrReasonNodeLabelNotMatch.
    filterWording(/^node\(s\) didn't match pod topology spread constraints$/, 'Unschedulable', 'all'),
    filterWording(/^node\(s\) didn't match pod topology spread constraints \(missing required label\)$/, 'UnschedulableAndUnresolvable', 'all'),
  ],
  messages: {
    spreadSkewExceeded: (d) => {
      const c = d.constraint;
      const placed = d.selfMatch ? `${d.matching} + 1 (this pod)` : `${d.matching} (this pod does not match the selector)`;
      const minimum = d.belowMinDomains
        ? `0 (only ${plural(d.domainCount, 'domain')}, fewer than minDomains ${c.minDomains})`
        : `${d.globalMinimum}`;
      const counts = d.counts.length > 0 ? `; matching pods per ${c.topologyKey}: ${countsText(d.counts, d.domainCount)}` : '';
      return `${constraintText(c)}: ${c.topologyKey}=${d.domain} would hold ${placed} matching pods against a global minimum of ${minimum}, skew ${d.skew} > maxSkew ${c.maxSkew}${counts}${onlyText(d)}`;
    },
    spreadLabelMissing: (d) =>
      `node has no label ${quote(d.constraint.topologyKey)}, the topologyKey of ${constraintText(d.constraint)}; the scheduler rejects such a node whatever the counts`,
  },
  short: {
    spreadSkewExceeded: (d) => `skew ${d.skew} > maxSkew ${d.constraint.maxSkew}`,
    spreadLabelMissing: (d) => `no label ${d.constraint.topologyKey}`,
  },
  headline: {
    spreadSkewExceeded: {
      key: (d) => `${d.constraint.index}|${d.onlyMinDomains ? 'minDomains' : ''}|${d.onlyTaintedDomains?.join(',') ?? ''}`,
      says: (n, [d]) => {
        const base = `would break its topology spread on ${d?.constraint.topologyKey ?? ''} (maxSkew ${d?.constraint.maxSkew ?? ''})`;
        if (d?.onlyTaintedDomains) return { text: `${base}, only because of ${list(d.onlyTaintedDomains)}, whose nodes all carry taints it does not tolerate`, brief: base };
        if (d?.onlyMinDomains) return { text: `${base}, only because ${plural(d.domainCount, 'domain')} ${d.domainCount === 1 ? 'is' : 'are'} fewer than minDomains ${d.constraint.minDomains}`, brief: base };
        return { text: base };
      },
    },
    spreadLabelMissing: {
      key: (d) => `${d.constraint.index}`,
      says: (n, [d]) => ({ text: `${verb(n, 'lacks', 'lack')} label ${quote(d?.constraint.topologyKey ?? '')}, the topologyKey of its topology spread` }),
    },
  },
});
