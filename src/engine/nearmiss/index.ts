// Public API of near-miss text comparison: pure functions, no I/O. Reporters word it
// (messages/nearmiss.ts) and draw it (report/human/aligned.ts).
export { classifyOps, compareText, type AlignedOp, type ClassifiedOp, type DiffKind, type TextDiff } from './compare.js';
export { nearest, similarity, type Nearest } from './similarity.js';
export { describeCodePoint, type CodePointInfo } from './unicode.js';
