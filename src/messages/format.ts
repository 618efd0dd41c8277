// Formatting shared by messages and reporters: kubectl's conventions (`<none>`, quantities as
// Kubernetes writes them, `key=value:Effect`).
import { codePointLabel, isInvisible, isNonBreakingSpace, isWhitespace } from '../engine/nearmiss/unicode.js';
import { formatResource, isByteResource } from '../engine/quantity/index.js';

export function quantity(resource: string, amount: bigint): string {
  return formatResource(resource, amount);
}

export function quote(text: string): string {
  return JSON.stringify(text);
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function list(items: string[], conjunction = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

/**
 * Amounts of one resource in one unit, for a column or a sentence: cpu in cores only when every
 * amount is whole cores, in millicores otherwise (never `2` beside `1500m`); other resources as
 * Kubernetes writes each value (memory in Ki, Mi or Gi per value).
 */
export function quantitiesAlike(resource: string, amounts: readonly bigint[]): string[] {
  if (resource === 'cpu') {
    const cores = amounts.every((a) => a % 1000n === 0n);
    return amounts.map((a) => (cores ? (a / 1000n).toString() : `${a}m`));
  }
  if (!isByteResource(resource)) return amounts.map((a) => formatResource(resource, a));
  // As few digits as keep different amounts apart: 1460916Ki reads as 1.39Gi.
  for (let digits = 3; digits < 7; digits++) {
    const texts = amounts.map((a) => readableBytes(a, digits));
    const distinct = new Set(amounts.map(String)).size;
    if (new Set(texts).size === distinct) return texts;
  }
  return amounts.map((a) => formatResource(resource, a));
}

const binaryUnits: [string, bigint][] = [
  ['Ti', 1n << 40n],
  ['Gi', 1n << 30n],
  ['Mi', 1n << 20n],
  ['Ki', 1n << 10n],
];

/** Bytes as Kubernetes writes them when that is short (512Mi), else in the largest binary unit, rounded down. */
function readableBytes(amount: bigint, digits: number): string {
  const exact = formatResource('memory', amount);
  if (exact.length <= 6) return exact;
  const size = amount < 0n ? -amount : amount;
  for (const [unit, scale] of binaryUnits) {
    if (size < scale) continue;
    const value = Number(amount) / Number(scale);
    const decimals = Math.max(0, digits - Math.floor(Math.abs(value)).toString().length);
    const factor = 10 ** decimals;
    const text = (Math.floor(value * factor) / factor).toFixed(decimals);
    return `${decimals > 0 ? text.replace(/0+$/, '').replace(/\.$/, '') : text}${unit}`;
  }
  return exact;
}

/**
 * A value from the cluster with what a reader cannot see made visible, in the notation of the
 * near-miss display: `nvme⟨U+00A0⟩`, `gpu⟨U+200B⟩`, a trailing space as `⟨U+0020⟩`. For
 * sentences, where there is no room to draw the comparison.
 */
export function visible(text: string): string {
  // 5,000 nodes' reasons repeat a few values: each is worked out once (label-sized ones: a
  // hostile dump's megabyte string is not kept twice).
  if (text.length > 256) return visibleUncached(text);
  let shown = visibleOf.get(text);
  if (shown === undefined) {
    if (visibleOf.size >= 10_000) visibleOf.clear();
    shown = visibleUncached(text);
    visibleOf.set(text, shown);
  }
  return shown;
}

const visibleOf = new Map<string, string>();

function visibleUncached(text: string): string {
  const chars = [...text];
  const edge = (i: number) => {
    let lead = 0;
    while (lead < chars.length && chars[lead] === ' ') lead++;
    let trail = chars.length;
    while (trail > lead && chars[trail - 1] === ' ') trail--;
    return i < lead || i >= trail;
  };
  return chars.map((c, i) => (isInvisible(c) || isNonBreakingSpace(c) || (isWhitespace(c) && (c !== ' ' || edge(i))) ? `⟨${codePointLabel(c)}⟩` : c)).join('');
}
