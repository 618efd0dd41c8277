// A few words per reason, for a table cell, from the descriptor of the plugin that gives it;
// kinds with no words that fit show the plugin's mark.
import type { ReasonDetail } from '../engine/reasons.js';
import { shortOf } from './registry.js';

// Once per detail, as describeReason (reasons.ts): a table of 5,000 nodes asks for each cell.
const shortened = new WeakMap<ReasonDetail, string>();

export function shortReason(detail: ReasonDetail): string {
  let text = shortened.get(detail);
  if (text === undefined) {
    const render = shortOf.get(detail.kind);
    if (!render) throw new Error(`no short form for reason kind ${detail.kind}`);
    text = render(detail);
    shortened.set(detail, text);
  }
  return text;
}
