// English for every structured reason, from the descriptor of the plugin that gives it
// (src/messages/rules/<Plugin>.ts, listed in src/messages/registry.ts). Each descriptor has one message
// per kind its rule returns, which the compiler checks.
import type { ReasonDetail } from '../engine/reasons.js';
import { messageOf } from './registry.js';

// A reason's detail is data nobody changes once the judge has made it, and nodes of one class
// share theirs: each is put in words once, not once for each of 5,000 nodes.
const described = new WeakMap<ReasonDetail, string>();

export function describeReason(detail: ReasonDetail): string {
  let text = described.get(detail);
  if (text === undefined) {
    const render = messageOf.get(detail.kind);
    if (!render) throw new Error(`no message for reason kind ${detail.kind}`);
    text = render(detail);
    described.set(detail, text);
  }
  return text;
}
