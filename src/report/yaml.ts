import { Document, visit } from 'yaml';
import type { Diagnosis } from '../engine/diagnosis.js';
import { hasTerminalControls, unicodeEscapeControls } from './escape.js';
import { present } from './present.js';
import type { Writer } from './writer.js';

export function reportYaml(d: Diagnosis, out: Writer): void {
  // Round-trip through JSON so the YAML holds exactly the JSON's data (no undefined fields).
  out.write(toYaml(JSON.parse(JSON.stringify(present(d)))));
}

/**
 * YAML whose strings parse back exactly, with no terminal control written raw: a string holding
 * one is double-quoted, where YAML reads \uXXXX escapes, and the controls the YAML writer leaves
 * raw there (C1, bidirectional) become such escapes.
 */
export function toYaml(data: unknown): string {
  const doc = new Document(data);
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && hasTerminalControls(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return unicodeEscapeControls(doc.toString({ lineWidth: 0 }));
}
