// A JSON list page as the apiserver writes it, taken apart without parsing it: the list's
// metadata, and each item's bytes exactly as served (`{"metadata":{...},"spec":...}`), so that
// the replay server can page them again byte for byte. The apiserver writes a list as
// `{"kind":..,"apiVersion":..,"metadata":{..},"items":[item,item,..]}` and a newline.

export interface ListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const BRACKET_CLOSE = 0x5d;

/** Where the JSON object that starts at `start` (a `{`) ends, one past its `}`. */
export function objectEnd(bytes: Buffer, start: number): number {
  if (bytes[start] !== OPEN) throw new Error(`no object at byte ${start}`);
  let depth = 0;
  let inString = false;
  for (let i = start; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN) {
      depth++;
    } else if (b === CLOSE) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new Error('an object runs past the end of the page');
}

/** The list's metadata and its items' bytes (views into `page`). */
export function splitJsonList(page: Buffer): { meta: ListMeta; items: Buffer[] } {
  const at = page.indexOf('"items":');
  if (at < 0) throw new Error('not a list: no "items"');
  const head = page.toString('utf8', 0, at);
  const metaAt = head.indexOf('"metadata":');
  const metaText = metaAt >= 0 ? page.toString('utf8', metaAt + '"metadata":'.length, objectEnd(page, metaAt + '"metadata":'.length)) : '{}';
  const meta = JSON.parse(metaText) as ListMeta;
  const items: Buffer[] = [];
  let i = at + '"items":'.length;
  if (page.toString('latin1', i, i + 4) === 'null') return { meta, items };
  if (page[i] !== 0x5b) throw new Error('"items" is not an array');
  i++;
  while (page[i] !== BRACKET_CLOSE) {
    const end = objectEnd(page, i);
    items.push(page.subarray(i, end));
    i = end;
    if (page[i] === COMMA) i++;
  }
  return { meta, items };
}

/** An item's `metadata` object, as served (the first member of every item the apiserver writes). */
function metadataOf(item: Buffer): Buffer {
  const prefix = '{"metadata":';
  if (item.toString('latin1', 0, prefix.length) !== prefix) throw new Error('an item that does not start with its metadata');
  return item.subarray(prefix.length, objectEnd(item, prefix.length));
}

/** A list's start as the apiserver writes it, up to the first item. */
function jsonListHead(kind: string, apiVersion: string, meta: ListMeta): string {
  const metadata = { ...(meta.resourceVersion ? { resourceVersion: meta.resourceVersion } : {}), ...(meta.continue ? { continue: meta.continue } : {}), ...(meta.remainingItemCount !== undefined ? { remainingItemCount: meta.remainingItemCount } : {}) };
  return `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":${JSON.stringify(metadata)},"items":[`;
}

/** A whole list page: head, items joined by commas, `]}` and the newline the apiserver ends with. */
export function jsonList(kind: string, apiVersion: string, meta: ListMeta, items: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from(jsonListHead(kind, apiVersion, meta))];
  const comma = Buffer.from(',');
  items.forEach((item, i) => {
    if (i > 0) parts.push(comma);
    parts.push(item);
  });
  parts.push(Buffer.from(']}\n'));
  return Buffer.concat(parts);
}

/** One object as a GET serves it: the item with its kind and apiVersion first. */
export function jsonObject(kind: string, apiVersion: string, item: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},`), item.subarray(1), Buffer.from('\n')]);
}

/** A metadata-only item (Accept: ...;as=PartialObjectMetadataList), from the item's own metadata. */
export function partialMetadataItem(item: Buffer): Buffer {
  return Buffer.concat([Buffer.from('{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":'), metadataOf(item), Buffer.from('}')]);
}
