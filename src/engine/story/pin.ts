// The pod's own pin on a topology label (its nodeSelector, its required node affinity), held
// against the values a volume allows: when none of the values the pod accepts is one the volume
// accepts, no node can satisfy both, whatever the cluster holds ("PV pv-1 is in zone us-east-1a;
// the pod's nodeSelector pins it to us-east-1b"). Only `In` expressions pin; NotIn, Exists and
// the others are left out, so "excludes" is only said when it is certain.
import type { V1Pod } from '@kubernetes/client-node';

export interface PodPin {
  source: 'nodeSelector' | 'nodeAffinity';
  /** The label the pod constrains. */
  key: string;
  /** The values it accepts for that label. */
  values: string[];
  /** The nodeSelectorTerm (0-based) of an affinity pin; terms are ORed. */
  term?: number;
}

export interface PinAgainstVolume {
  pins: PodPin[];
  /** True when every node the pod accepts has a value outside what the volume allows. */
  excludesVolume: boolean;
}

/** The pod's pins on any of `keys` (a label and its beta or GA twin), held against `allowed`. */
export function podPinAgainst(pod: V1Pod, keys: readonly string[], allowed: readonly string[]): PinAgainstVolume | undefined {
  const pins: PodPin[] = [];
  for (const key of keys) {
    const value = pod.spec?.nodeSelector?.[key];
    if (value !== undefined) pins.push({ source: 'nodeSelector', key, values: [value] });
  }
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  terms.forEach((term, index) => {
    for (const e of term.matchExpressions ?? []) {
      if (e.operator === 'In' && keys.includes(e.key)) pins.push({ source: 'nodeAffinity', key: e.key, values: e.values ?? [], term: index });
    }
  });
  if (pins.length === 0) return undefined;
  const disjoint = (p: PodPin) => !p.values.some((v) => allowed.includes(v));
  const bySelector = pins.some((p) => p.source === 'nodeSelector' && disjoint(p));
  // Terms are ORed: the affinity excludes the volume only when every term does.
  const byAffinity = terms.length > 0 && terms.every((_, index) => pins.some((p) => p.term === index && disjoint(p)));
  return { pins, excludesVolume: bySelector || byAffinity };
}
