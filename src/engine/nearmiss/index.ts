// Public API of near-miss text comparison: pure functions, no I/O. Reporters word it
// (messages/nearmiss.ts) and draw it (report/human/aligned.ts).
export { compareText, type DiffKind, type TextDiff } from './compare.js';
export { moreTyposApart } from './apart.js';
export { certainlyBelow, isNearMiss, mayBeNearMiss, nearest, nearMissesOf, similarity, type Nearest } from './similarity.js';
export { describeCodePoint } from './unicode.js';
