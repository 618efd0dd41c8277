// -l/--selector, as kubectl reads it (apimachinery labels.Parse): requirements separated by
// commas, each `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k` or `!k`. Made into a
// LabelSelector, which the engine matches and the live source sends back as text.
import type { V1LabelSelector, V1LabelSelectorRequirement } from '@kubernetes/client-node';
import { UsageError } from '../errors.js';

/** Splits at commas outside parentheses. */
function requirements(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim());
}

// A label key (an optional DNS prefix and a name) and a label value, as the API allows them.
const key = '[A-Za-z0-9][A-Za-z0-9._/-]*';
const value = '[A-Za-z0-9._-]*';
const setForm = new RegExp(`^(${key})\\s+(in|notin)\\s*\\(([^()]*)\\)$`);
const equalityForm = new RegExp(`^(${key})\\s*(==|=|!=)\\s*(${value})$`);
const absentForm = new RegExp(`^!\\s*(${key})$`);
const existsForm = new RegExp(`^${key}$`);

function requirement(text: string, whole: string): V1LabelSelectorRequirement {
  const set = setForm.exec(text);
  if (set) {
    const values = (set[3] ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
    return { key: set[1] ?? '', operator: set[2] === 'in' ? 'In' : 'NotIn', values };
  }
  const equality = equalityForm.exec(text);
  if (equality) return { key: equality[1] ?? '', operator: equality[2] === '!=' ? 'NotIn' : 'In', values: [equality[3] ?? ''] };
  const absent = absentForm.exec(text);
  if (absent) return { key: absent[1] ?? '', operator: 'DoesNotExist' };
  if (existsForm.test(text)) return { key: text, operator: 'Exists' };
  throw new UsageError(`-l/--selector "${whole}": cannot read "${text}" (write k=v, k!=v, k in (a,b), k notin (a,b), k or !k)`);
}

export function parseSelector(text: string): V1LabelSelector {
  const parts = requirements(text);
  if (parts.some((p) => p === '')) throw new UsageError(`-l/--selector "${text}": an empty requirement`);
  return { matchExpressions: parts.map((p) => requirement(p, text)) };
}
