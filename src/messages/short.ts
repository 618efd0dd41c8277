// A few words per reason, for a table cell, from the descriptor of the plugin that gives it;
// kinds with no words that fit show the plugin's mark.
import type { ReasonDetail } from '../engine/reasons.js';
import { shortOf } from '../plugins.js';

export function shortReason(detail: ReasonDetail): string {
  const render = shortOf.get(detail.kind);
  if (!render) throw new Error(`no short form for reason kind ${detail.kind}`);
  return render(detail);
}
