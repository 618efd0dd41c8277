// Where a piece of JSON that JSON.parse rejected goes wrong. V8 names the position for some
// faults ("at position 12") but not for others ("Unexpected token '}', ... is not valid JSON"),
// so a small strict parser walks the (one object's worth of) text again to find the spot. It
// runs only after a failure, never on the fast path.

export interface JsonFault {
  /** Offset into the text, in UTF-16 code units, as the string is indexed. */
  offset: number;
  message: string;
}

class Fault extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

const ws = new Set([' ', '\t', '\n', '\r']);

function shown(ch: string | undefined): string {
  return ch === undefined ? 'end of input' : `'${ch}'`;
}

export function locateJsonFault(text: string): JsonFault | undefined {
  let i = 0;
  const skip = () => {
    while (i < text.length && ws.has(text[i] as string)) i++;
  };
  const unexpected = (expected: string): never => {
    throw new Fault(i, `expected ${expected}, found ${shown(text[i])}`);
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else unexpected('a value');
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      const ch = text[i];
      if (ch === undefined) throw new Fault(i, 'unterminated string');
      if (ch === '"') break;
      if (ch < ' ') throw new Fault(i, 'control character in a string (write it as an escape, like \\n)');
      if (ch === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new Fault(i, 'bad \\u escape: it needs four hex digits');
          i += 6;
          continue;
        }
        if (next === undefined || !'"\\/bfnrt'.includes(next)) throw new Fault(i, `bad escape \\${next ?? ''}`);
        i += 2;
        continue;
      }
      i++;
    }
    i++;
  };
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match) unexpected('a value');
    i += (match as RegExpExecArray)[0].length;
    if (/[0-9.eE+-]/.test(text[i] ?? '')) throw new Fault(i, 'malformed number');
  };
  const value = (depth: number): void => {
    if (depth > 5000) throw new Fault(i, 'nested too deeply');
    skip();
    const ch = text[i];
    if (ch === '{') {
      i++;
      skip();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        skip();
        if (text[i] !== '"') unexpected('a property name in double quotes');
        string();
        skip();
        if (text[i] !== ':') unexpected("':' after a property name");
        i++;
        value(depth + 1);
        skip();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        unexpected("',' or '}'");
      }
    }
    if (ch === '[') {
      i++;
      skip();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        skip();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        unexpected("',' or ']'");
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    unexpected('a value');
  };
  try {
    value(0);
    skip();
    if (i < text.length) unexpected('end of input');
    return undefined;
  } catch (error) {
    if (error instanceof Fault) return { offset: error.offset, message: error.message };
    throw error;
  }
}
