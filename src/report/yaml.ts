import type { Diagnosis } from '../engine/diagnosis.js';
import { hasTerminalControls, unicodeEscapeControls } from './escape.js';
import { present } from './present.js';
import type { Writer } from './writer.js';

export function reportYaml(d: Diagnosis, out: Writer): void {
  out.write(toYaml(present(d)));
}

// A YAML writer for JSON's data model, written here rather than through the yaml library's
// document model, which builds a node per value before it prints: at thousands of nodes that
// model costs several times what writing lines does (BENCHMARKS.md). The data is the JSON's exactly (JSON.stringify's rules: toJSON,
// undefined members left out, undefined items and non-finite numbers as null), in the block
// style kubectl prints: mappings and sequences indented by two, empty ones as {} and [].

// A string written plain reads back as that string in YAML 1.2 and 1.1 alike: it starts with a
// letter (not a number, a sign or an indicator), holds no character YAML gives a meaning to
// (quotes, `#`, flow brackets, anchors...), no `: ` and no white space or colon at its end, and
// is no word either version reads as a boolean or null (nor `e5`, which a lenient YAML 1.1
// reader takes for an exponent); or it is a quantity (`100m`, `1.5Gi`),
// which neither reads as a number. Anything else is double-quoted.
const plain = /^[A-Za-z_][A-Za-z0-9 _./()=+,;~:-]*$/;
const quantity = /^[0-9]+(\.[0-9]+)?(n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)$/;
const words = new Set(['null', 'true', 'false', 'yes', 'no', 'on', 'off', 'y', 'n']);
const exponent = /^[eE][-+]?[0-9]+$/;

function isPlain(text: string): boolean {
  if (quantity.test(text)) return true;
  return plain.test(text) && !text.endsWith(' ') && !text.endsWith(':') && !text.includes(': ') && !words.has(text.toLowerCase()) && !exponent.test(text);
}

function scalarString(text: string): string {
  if (isPlain(text)) return text;
  // JSON's escapes are YAML's (\", \\, \n, \uXXXX...); the controls JSON leaves raw (C1,
  // bidirectional, the line separators) become \uXXXX escapes too.
  const quoted = JSON.stringify(text);
  return hasTerminalControls(quoted) ? unicodeEscapeControls(quoted) : quoted;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `value` as JSON.stringify reads it: undefined for what JSON leaves out. */
function jsonValue(value: unknown, key: string): Json | undefined {
  let v = value;
  if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON: (k: string) => unknown }).toJSON(key);
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? v : null;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      if (v === null) return null;
      if (v instanceof Number || v instanceof String || v instanceof Boolean) return jsonValue(v.valueOf(), key);
      return v as Json;
    default:
      return undefined;
  }
}

type Block = Json[] | { [key: string]: Json };

/** One document's lines. */
class YamlText {
  readonly lines: string[] = [];

  /** A scalar, or an empty mapping or sequence, on the line it belongs to; undefined for a block. */
  inline(v: Json): string | undefined {
    if (v === null) return 'null';
    if (typeof v === 'string') return scalarString(v);
    if (typeof v !== 'object') return String(v);
    if (Array.isArray(v)) return v.length === 0 ? '[]' : undefined;
    for (const key in v) if (Object.hasOwn(v, key) && jsonValue(v[key], key) !== undefined) return undefined;
    return '{}';
  }

  /**
   * The lines of a non-empty mapping or sequence, each starting with `indent`, but the first,
   * which starts with `first` (`- ` where it is an item of a sequence: `- key: value`, `- - item`).
   */
  block(v: Block, indent: string, first: string): void {
    const deeper = `${indent}  `;
    let lead = first;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item = jsonValue(v[i], String(i)) ?? null;
        const text = this.inline(item);
        if (text !== undefined) this.lines.push(`${lead}- ${text}`);
        else this.block(item as Block, deeper, `${lead}- `);
        lead = indent;
      }
      return;
    }
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      const value = jsonValue(v[key], key);
      if (value === undefined) continue;
      const text = this.inline(value);
      if (text !== undefined) this.lines.push(`${lead}${scalarString(key)}: ${text}`);
      else {
        this.lines.push(`${lead}${scalarString(key)}:`);
        this.block(value as Block, deeper, deeper);
      }
      lead = indent;
    }
  }
}

/**
 * YAML whose strings parse back exactly, with no terminal control written raw: a string holding
 * one is double-quoted, where YAML reads \uXXXX escapes for every control.
 */
export function toYaml(data: unknown): string {
  const value = jsonValue(data, '');
  if (value === undefined) return '';
  const writer = new YamlText();
  const text = writer.inline(value);
  if (text !== undefined) return `${text}\n`;
  writer.block(value as Block, '', '');
  return `${writer.lines.join('\n')}\n`;
}
