// Turns the text of one dump file into plain objects. JSON goes through JSON.parse (kubectl's
// JSON dumps are large and the YAML parser is many times slower); anything else is YAML,
// possibly several documents.
import { parseAllDocuments } from 'yaml';
import { InputError } from '../../errors.js';

export function parseDocuments(text: string, fileLabel: string): unknown[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return [JSON.parse(text) as unknown];
    } catch (error) {
      // Not JSON after all (YAML flow style starts with `{` too): let the YAML parser judge,
      // and borrow its line and column, which JSON.parse no longer reports.
      const viaYaml = tryYaml(text, fileLabel);
      if (viaYaml.ok) return viaYaml.documents;
      const where = jsonPosition(text, error) ?? viaYaml.position ?? 'somewhere';
      throw new InputError(`${fileLabel}: ${where}: not valid JSON: ${firstLine(error)}`);
    }
  }
  const parsed = tryYaml(text, fileLabel);
  if (!parsed.ok) throw parsed.error;
  return parsed.documents;
}

function tryYaml(text: string, fileLabel: string): { ok: true; documents: unknown[] } | { ok: false; error: InputError; position?: string } {
  const documents = parseAllDocuments(text, { uniqueKeys: false, intAsBigInt: false });
  const list = Array.isArray(documents) ? documents : [documents];
  const out: unknown[] = [];
  for (const doc of list) {
    const problem = doc.errors[0];
    if (problem) {
      const pos = problem.linePos?.[0];
      const where = pos ? `line ${pos.line}, column ${pos.col}` : 'somewhere';
      return { ok: false, error: new InputError(`${fileLabel}: ${where}: not valid YAML: ${problem.message.split('\n')[0]}`), ...(pos ? { position: where } : {}) };
    }
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    if (value !== null && value !== undefined) out.push(value);
  }
  return { ok: true, documents: out };
}

function jsonPosition(text: string, error: unknown): string | undefined {
  const match = /position (\d+)/.exec(String(error));
  if (!match?.[1]) return undefined;
  const offset = Number(match[1]);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

function firstLine(error: unknown): string {
  // Node quotes the surrounding text after the reason; the position already says where.
  return ((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '').replace(/, ".*$/, '');
}
