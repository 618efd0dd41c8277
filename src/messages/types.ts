import type { ReasonDetail, ReasonKind } from '../engine/reasons.js';

/** One line of English per reason kind. Each rule's messages live in rules/<Plugin>.ts. */
export type MessageTable<K extends ReasonKind> = {
  [P in K]: (detail: Extract<ReasonDetail, { kind: P }>) => string;
};
