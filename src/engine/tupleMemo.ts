// A memo keyed by a short list of values, each compared as a Map compares its keys (strings by
// content, objects by identity), in nested maps: no string is built from the values for each
// of 5,000 nodes. Lists of different lengths never share an entry.
const entry = Symbol('entry');

type Level = Map<unknown, unknown>;

export class TupleMemo<T> {
  private readonly root: Level = new Map();

  get(parts: readonly unknown[], compute: () => T): T {
    let level = this.root;
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      let next = level.get(part) as Level | undefined;
      if (!next) level.set(part, (next = new Map()));
      level = next;
    }
    if (level.has(entry)) return level.get(entry) as T;
    const value = compute();
    level.set(entry, value);
    return value;
  }
}
