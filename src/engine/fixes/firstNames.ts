// The nodes a follow-up read is asked for are the first names in sort order of those whose pods a
// replay could not read: kept as they come, a few at a time, rather than gathered and sorted (a
// labelling's replay gives 4,400 names, of which the read asks for 20).

/**
 * Adds `names` to `kept` (sorted, each name once, at most `limit`) so that it holds the first
 * `limit` of all the names given so far, in the order of Array.prototype.sort.
 */
export function keepFirstNames(kept: string[], names: readonly string[], limit: number): void {
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (kept.length >= limit && name >= (kept[kept.length - 1] as string)) continue;
    let at = kept.length;
    while (at > 0 && (kept[at - 1] as string) > name) at--;
    if (at > 0 && kept[at - 1] === name) continue;
    kept.splice(at, 0, name);
    if (kept.length > limit) kept.pop();
  }
}
