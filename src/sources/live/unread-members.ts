// managedFields are often 40% of a listed pod, and a node's status.images most of a node;
// nothing here reads either. They are cut out of a list page's bytes before the page is decoded
// and parsed, so that JSON.parse never builds them (at 50,000 pods, about a third of the parse
// and of the garbage). The apiserver writes compact JSON: `"managedFields":[` with no space.
// Inside a JSON string a quote is always escaped, so those bytes, with a bare quote before the
// colon, only ever start the key itself. Anything unexpected (no closing bracket) leaves the
// page as it was: JSON.parse then reads it whole, and the members are deleted from the parsed
// objects as before (Transport.list, compact.ts).
import { cordonMarker } from '../cordon.js';

const quote = 0x22;
const backslash = 0x5c;
const comma = 0x2c;

/** The index just past the array or object that opens at `open`, or -1 when it does not close. */
function endOf(bytes: Buffer, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === backslash) i++;
      else if (c === quote) inString = false;
      continue;
    }
    if (c === quote) inString = true;
    else if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * `bytes` (compact JSON) without any `"<name>":[...]` member (and its comma), for each of
 * `names`; a managedFields array that says who cordoned a node is kept (../cordon.ts).
 */
export function withoutArrayMembers(bytes: Buffer, names: readonly string[]): Buffer {
  let out = bytes;
  for (const name of names) out = without(out, Buffer.from(`"${name}":[`));
  return out;
}

const managedFieldsKey = Buffer.from('"managedFields":[');

function without(bytes: Buffer, key: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  let search = 0;
  for (;;) {
    const at = bytes.indexOf(key, search);
    if (at < 0) break;
    const end = endOf(bytes, at + key.length - 1);
    if (end < 0) return bytes;
    search = end;
    if (key.equals(managedFieldsKey) && bytes.subarray(at, end).includes(cordonMarker)) continue;
    let cutFrom = at;
    let cutTo = end;
    if (bytes[at - 1] === comma) cutFrom = at - 1;
    else if (bytes[end] === comma) cutTo = end + 1;
    parts.push(bytes.subarray(from, cutFrom));
    from = cutTo;
  }
  if (parts.length === 0) return bytes;
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}
