// English for every structured reason, from the descriptor of the plugin that gives it
// (src/messages/rules/<Plugin>.ts, listed in src/plugins.ts). Each descriptor has one message
// per kind its rule returns, which the compiler checks.
import type { ReasonDetail } from '../engine/reasons.js';
import { messageOf } from '../plugins.js';

export function describeReason(detail: ReasonDetail): string {
  const render = messageOf.get(detail.kind);
  if (!render) throw new Error(`no message for reason kind ${detail.kind}`);
  return render(detail);
}
