// A few words per reason, for a table cell. Kinds without a short form use the plugin's mark.
import type { ReasonDetail } from '../engine/reasons.js';
import { formatTaint } from '../engine/match/tolerations.js';
import { quantity } from './format.js';

export function shortReason(d: ReasonDetail): string {
  switch (d.kind) {
    case 'nodeCordoned':
      return 'cordoned';
    case 'nodeNameMismatch':
      return `wants ${d.wanted}`;
    case 'untoleratedTaint':
      return formatTaint(d.taint);
    case 'nodeSelectorMismatch':
    case 'requiredAffinityMismatch': {
      const misses = d.kind === 'nodeSelectorMismatch' ? d.misses : d.terms.flatMap((t) => t.misses);
      const first = misses[0];
      if (!first) return 'no match';
      return first.actual !== undefined ? `${first.key}=${first.actual}` : `no ${first.key}`;
    }
    case 'outsidePreFilterNodes':
      return 'not named';
    case 'hostPortInUse':
      return `port ${d.wanted.port}/${d.wanted.protocol} taken`;
    case 'insufficientResource':
      return d.resource === 'pods' ? `pods ${d.used}/${d.allocatable}` : `${d.resource} short ${quantity(d.resource, d.short)}`;
    default:
      return '✗';
  }
}
