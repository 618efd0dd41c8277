// The field selectors the replay server answers, as the apiserver reads them (`a=b,c!=d`, `==`
// too, values escaped as fields.EscapeValue does) over the few fields each kind supports. Label
// selectors are read by the CLI's own parser (src/cli/selector.ts) and matched by the engine's.
import { parseSelector } from '../../../src/cli/selector.js';
import { matchesLabelSelector } from '../../../src/engine/match/labelSelector.js';

export interface FieldRequirement {
  field: string;
  equal: boolean;
  value: string;
}

/** Splits on `sep` where it is not escaped by a backslash; the backslashes stay for unescape. */
function splitUnescaped(text: string, sep: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (ch === '\\' && i + 1 < text.length) {
      current += ch + (text[i + 1] ?? '');
      i++;
    } else if (ch === sep) {
      out.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  out.push(current);
  return out;
}

function unescapeValue(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

export function parseFieldSelector(text: string): FieldRequirement[] {
  if (text.trim() === '') return [];
  return splitUnescaped(text, ',').map((term) => {
    const match = /^([^=!]+)(==|=|!=)(.*)$/s.exec(term);
    if (!match) throw new Error(`invalid field selector term "${term}"`);
    return { field: (match[1] ?? '').trim(), equal: match[2] !== '!=', value: unescapeValue(match[3] ?? '') };
  });
}

export function matchesFields(requirements: readonly FieldRequirement[], fields: Readonly<Record<string, string>>): boolean {
  return requirements.every((r) => ((fields[r.field] ?? '') === r.value) === r.equal);
}

/** Whether a label set is selected by `text`, as kubectl's -l reads it and the engine matches it; empty selects everything. */
export function labelFilter(text: string): (labels: Readonly<Record<string, string>>) => boolean {
  if (text.trim() === '') return () => true;
  const selector = parseSelector(text);
  return (labels) => matchesLabelSelector(selector, labels);
}
