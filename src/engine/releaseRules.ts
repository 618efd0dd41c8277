// The rules a release's default scheduler runs, in its filter order: the newest release's rules
// (rules/index.ts) without those it does not have yet (`meta.since`), and each rule moved since
// (`meta.movedIn`) back where that release ran it. The release itself is read in release.ts.
import type { Rule, RuleSet } from './reasons.js';

// One rule set per release asked for, so that a triage's pods share it (and the equivalence
// cache its judgements).
const ruleSets = new WeakMap<RuleSet, Map<number, RuleSet>>();

/** Whether the release's default scheduler runs the rule (`meta.since`, absent: every release). */
export function runsIn(rule: Rule, minor: number): boolean {
  return (rule.meta.since ?? 0) <= minor;
}

/** `rules` (the newest release's filter order) in the release's order: a rule moved since goes back where it ran. */
function inOrderOf(rules: readonly Rule[], minor: number): readonly Rule[] {
  let out = rules;
  for (const rule of rules) {
    const moved = rule.meta.movedIn;
    if (!moved || minor >= moved.minor) continue;
    const rest = out.filter((r) => r !== rule);
    const at = rest.findIndex((r) => r.meta.name === moved.ranBefore);
    out = at < 0 ? out : [...rest.slice(0, at), rule, ...rest.slice(at)];
  }
  return out;
}

/** `plugins` without the rules the release does not run (`meta.since` after it), in the release's filter order. */
export function forRelease(plugins: RuleSet, minor: number): RuleSet {
  let byMinor = ruleSets.get(plugins);
  if (!byMinor) ruleSets.set(plugins, (byMinor = new Map()));
  let set = byMinor.get(minor);
  if (!set) {
    const rules = inOrderOf(plugins.rules.filter((rule) => runsIn(rule, minor)), minor);
    set = rules.length === plugins.rules.length && rules.every((r, i) => r === plugins.rules[i]) ? plugins : { ...plugins, rules };
    byMinor.set(minor, set);
  }
  return set;
}
