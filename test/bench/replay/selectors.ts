// The selectors the replay server answers, as the apiserver reads them: field selectors
// (`a=b,c!=d`, `==` too, values escaped as fields.EscapeValue does) over the few fields each
// kind supports, and label selectors (`k`, `!k`, `k=v`, `k==v`, `k!=v`, `k in (a,b)`,
// `k notin (a,b)`).

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

type LabelRequirement =
  | { key: string; op: 'exists' | 'absent' }
  | { key: string; op: 'in' | 'notin'; values: string[] };

/** Splits on commas outside parentheses (`k in (a,b),x=y`). */
function splitTerms(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  out.push(current);
  return out.map((t) => t.trim()).filter((t) => t !== '');
}

export function parseLabelSelector(text: string): LabelRequirement[] {
  return splitTerms(text).map((term): LabelRequirement => {
    const set = /^(\S+)\s+(in|notin)\s+\((.*)\)$/s.exec(term);
    if (set) return { key: set[1] ?? '', op: set[2] as 'in' | 'notin', values: (set[3] ?? '').split(',').map((v) => v.trim()) };
    const compare = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/s.exec(term);
    if (compare) return { key: compare[1] ?? '', op: compare[2] === '!=' ? 'notin' : 'in', values: [(compare[3] ?? '').trim()] };
    if (term.startsWith('!')) return { key: term.slice(1).trim(), op: 'absent' };
    if (/^[^\s()=!,]+$/.test(term)) return { key: term, op: 'exists' };
    throw new Error(`invalid label selector term "${term}"`);
  });
}

export function matchesLabels(requirements: readonly LabelRequirement[], labels: Readonly<Record<string, string>>): boolean {
  return requirements.every((r) => {
    const has = Object.hasOwn(labels, r.key);
    switch (r.op) {
      case 'exists':
        return has;
      case 'absent':
        return !has;
      case 'in':
        return has && r.values.includes(labels[r.key] ?? '');
      case 'notin':
        return !has || !r.values.includes(labels[r.key] ?? '');
    }
  });
}
