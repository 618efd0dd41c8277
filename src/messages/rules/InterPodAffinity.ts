// InterPodAffinity: what it checks, its messages (which term, which domain, which pods) and short forms, and the scheduler's wordings.
import rule, { type AffinityTermRef, type PodRef } from '../../engine/rules/InterPodAffinity.js';
import { filterWording } from '../../engine/scheduler-message/catalog.js';
import { list, plural, quote } from '../format.js';
import { plugin, verb } from '../plugin.js';
import { selectorText } from './PodTopologySpread.js';

function namespacesText(t: AffinityTermRef): string {
  if (t.namespaceSelector === '') return 'in every namespace';
  const named = t.namespaces.length > 0 ? `in ${t.namespaces.length === 1 ? 'namespace' : 'namespaces'} ${t.namespaces.join(', ')}` : '';
  if (t.namespaceSelector === undefined) return named;
  const selector = `namespaceSelector ${t.namespaceSelector}`;
  const selected = t.namespacesSelected ? ` (${t.namespacesSelected.length === 0 ? 'selects no namespace' : `selects ${t.namespacesSelected.join(', ')}`})` : '';
  const unknown = t.namespaceSelectorUnknown ? ' (namespace labels could not be read: which namespaces it selects is unknown)' : '';
  return named ? `${named} or by ${selector}${selected}${unknown}` : `by ${selector}${selected}${unknown}`;
}

function termText(t: AffinityTermRef): string {
  return `term ${t.index + 1} (pods ${selectorText(t.selector)} ${namespacesText(t)}, topologyKey ${t.topologyKey})`;
}

function podText(p: PodRef): string {
  return `${p.namespace}/${p.name} on ${p.node}`;
}

function podsText(pods: readonly PodRef[], total: number): string {
  const shown = pods.map(podText).join(', ');
  return total > pods.length ? `${shown} and ${total - pods.length} more` : shown;
}

/**
 * Many pods of one owner in a few words: `monitoring/node-exporter-*` for pods sharing a
 * namespace and a name prefix, else the first name and how many more.
 */
function podPattern(pods: readonly { namespace: string; name: string }[]): string {
  const names = [...new Set(pods.map((p) => `${p.namespace}/${p.name}`))];
  if (names.length <= 1) return names[0] ?? '';
  let prefix = names[0] ?? '';
  for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const cut = prefix.replace(/[^-.]*$/, '');
  return cut.includes('/') && cut.length > cut.indexOf('/') + 2 ? `${cut}* (${names.length} pods)` : `${names[0] ?? ''} and ${names.length - 1} more`;
}

export default plugin(rule, {
  purpose: 'pod affinity or anti-affinity (the pod\'s own, or an existing pod\'s) rules the node out',
  wordings: [
    // interpodaffinity/filtering.go. ErrReasonAffinityNotMatch came with every specific reason
    // until PR #102518 (v1.22) dropped it.
    filterWording(/^node\(s\) didn't satisfy existing pods anti-affinity rules$/, 'Unschedulable', 'all'),
    filterWording(/^node\(s\) didn't match pod affinity rules$/, 'UnschedulableAndUnresolvable', 'all'),
    filterWording(/^node\(s\) didn't match pod anti-affinity rules$/, 'Unschedulable', 'all'),
    { ...filterWording(/^node\(s\) didn't match pod affinity\/anti-affinity$/, undefined, '<= v1.20'), companion: true },
    { ...filterWording(/^node\(s\) didn't match pod affinity\/anti-affinity rules$/, undefined, 'v1.21'), companion: true },
  ],
  messages: {
    podAffinityLabelMissing: (d) =>
      `node has no label ${list([...new Set(d.terms.map((t) => t.topologyKey))].map(quote))}, needed by required pod affinity ${d.terms.map(termText).join('; ')}`,
    podAffinityUnmatched: (d) => {
      const terms = d.terms
        .map((u) => {
          const more = u.elsewhereDomains > u.elsewhere.length ? ` and ${u.elsewhereDomains - u.elsewhere.length} more` : '';
          const where = u.elsewhere.length > 0 ? `; matching pods run in ${u.elsewhere.map((e) => `${u.term.topologyKey}=${e.domain} (${e.pods})`).join(', ')}${more}` : '';
          return `required pod affinity ${termText(u.term)}: no matching pod in ${u.term.topologyKey}=${u.domain}${where}`;
        })
        .join('; ');
      if (d.matchingPodCount > 0) return `${terms} (pods matching all terms: ${podsText(d.matchingPods, d.matchingPodCount)})`;
      const self = d.selfMatch ? '' : ', and this pod does not match its own terms, so it cannot be the first of its group';
      return `${terms}; no pod matches all the affinity terms anywhere${self}`;
    },
    podAntiAffinityConflict: (d) =>
      d.terms
        .map((c) => `required pod anti-affinity ${termText(c.term)}: ${c.term.topologyKey}=${c.domain} already runs ${plural(c.podCount, 'matching pod')}: ${podsText(c.pods, c.podCount)}`)
        .join('; ') + (d.symmetric ? '; their own anti-affinity rejects this pod too' : ''),
    existingPodAntiAffinityConflict: (d) => {
      const conflicts = d.conflicts
        .map((c) => `${podText(c.pod)} has anti-affinity ${termText(c.term)} matching this pod, and this node shares ${c.term.topologyKey}=${c.domain} with it`)
        .join('; ');
      return d.conflictCount > d.conflicts.length ? `${conflicts}; and ${d.conflictCount - d.conflicts.length} more` : conflicts;
    },
  },
  short: {
    podAffinityLabelMissing: (d) => `no label ${d.terms[0]?.topologyKey ?? ''}`,
    podAffinityUnmatched: () => 'no affinity pod here',
    podAntiAffinityConflict: (d) => `anti-affinity: ${plural(d.terms.reduce((n, t) => n + t.podCount, 0), 'pod')}`,
    existingPodAntiAffinityConflict: (d) => `anti-affinity of ${plural(d.conflictCount, 'pod')}`,
  },
  headline: {
    existingPodAntiAffinityConflict: {
      key: (d) => {
        const c = d.conflicts[0];
        return c ? `${c.pod.namespace}|${c.term.selector ?? ''}|${c.term.topologyKey}` : '';
      },
      says: (n, details) => {
        const c = details[0]?.conflicts[0];
        const pods = podPattern(details.flatMap((d) => d.conflicts.map((x) => x.pod)));
        const brief = `${verb(n, 'shares', 'share')} ${c?.term.topologyKey ?? 'a domain'} with ${pods}`;
        return { text: `${brief}, whose anti-affinity (${selectorText(c?.term.selector ?? null)}) rejects this pod`, brief };
      },
    },
    podAntiAffinityConflict: {
      key: (d) => `${d.terms[0]?.term.index ?? ''}`,
      says: (n, details) => {
        const t = details[0]?.terms[0]?.term;
        const pods = podPattern(details.flatMap((d) => d.terms.flatMap((x) => x.pods)));
        return {
          text: `already ${verb(n, 'has', 'have')} pods its anti-affinity (${selectorText(t?.selector ?? null)}) rejects in the same ${t?.topologyKey ?? 'domain'}: ${pods}`,
          brief: `already ${verb(n, 'has', 'have')} pods its anti-affinity rejects`,
        };
      },
    },
    podAffinityUnmatched: {
      key: (d) => `${d.terms[0]?.term.index ?? ''}`,
      says: (n, [d]) => {
        const t = d?.terms[0]?.term;
        return { text: `${verb(n, 'has', 'have')} no pod its pod affinity wants (${selectorText(t?.selector ?? null)}) in the same ${t?.topologyKey ?? 'domain'}` };
      },
    },
    podAffinityLabelMissing: {
      key: (d) => d.terms[0]?.topologyKey ?? '',
      says: (n, [d]) => ({ text: `${verb(n, 'lacks', 'lack')} label ${quote(d?.terms[0]?.topologyKey ?? '')}, the topologyKey of its pod affinity` }),
    },
  },
  presentation: {
    // A symmetric anti-affinity (the pod's term rejects pods whose own term rejects the pod) fails
    // twice: the pod's own term, which says so, is kept.
    existingPodAntiAffinityConflict: { toldBy: (_, others) => others.some((o) => o.kind === 'podAntiAffinityConflict' && o.symmetric) },
  },
});
