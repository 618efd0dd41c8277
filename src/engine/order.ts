// The order of names in reports and in the engine's choices (the pod diagnosed for an owner, the
// node a request fix is sized on, nodes, pods and resources listed): English collation, fixed.
// localeCompare follows the user's locale, so the same cluster gave another answer elsewhere:
// in Lithuanian `y` sorts between `i` and `j`, and `deploy/web` picked web-y before web-j.
// One collator, not one per comparison (localeCompare builds one per call).
export const byText: (a: string, b: string) => number = new Intl.Collator('en').compare;
