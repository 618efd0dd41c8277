// A node's label keys, once per labels object: at 5,000 nodes most nodes have the same keys
// (the hostname's value differs, not its key), so what depends on the keys alone (the key
// nearest to a wanted one) is worked out once per list of keys, keyed by `joined`. Labels
// objects are never changed (a fix's replay patches a copy), so the list is kept with them.
const lists = new WeakMap<Record<string, string>, LabelKeys>();

export interface LabelKeys {
  keys: string[];
  /** The keys in their order as JSON (a hostile key may hold any character): equal lists, equal strings. */
  joined: string;
}

// The list last worked out: nodes are walked in order and most have the keys of the node before
// (property keys are interned strings: comparing them is comparing pointers), so most share
// that list instead of writing their own JSON text of it.
let last: LabelKeys = { keys: [], joined: '[]' };

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function labelKeys(labels: Record<string, string>): LabelKeys {
  let found = lists.get(labels);
  if (!found) {
    const keys = Object.keys(labels);
    found = sameKeys(keys, last.keys) ? last : { keys, joined: JSON.stringify(keys) };
    last = found;
    lists.set(labels, found);
  }
  return found;
}

/** A memo by a string and a node's list of keys, at most `kept` strings of each. */
export function byKeyList<T>(kept = 10_000): (wanted: string, keys: LabelKeys, compute: () => T) => T {
  const memo = new Map<string, Map<string, T>>();
  return (wanted, keys, compute) => {
    let byKeys = memo.get(wanted);
    if (!byKeys) {
      if (memo.size >= kept) memo.clear();
      memo.set(wanted, (byKeys = new Map()));
    }
    if (byKeys.has(keys.joined)) return byKeys.get(keys.joined) as T;
    const value = compute();
    if (byKeys.size >= kept) byKeys.clear();
    byKeys.set(keys.joined, value);
    return value;
  };
}
