// Public API of near-miss text comparison: pure functions, no I/O.
export { classifyOps, compareText, type AlignedOp, type ClassifiedOp, type DiffKind, type TextDiff } from './compare.js';
export { nearest, similarity, type Nearest } from './similarity.js';
export { explainDiff, renderAligned } from './render.js';
export { describeCodePoint, type CodePointInfo } from './unicode.js';
