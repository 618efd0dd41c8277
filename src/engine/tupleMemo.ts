// A memo keyed by a short list of values, each compared as a Map compares its keys (strings by
// content, objects by identity), in nested maps: no string is built from the values for each
// of 5,000 nodes. The last value of a list keys the answer itself, so a list of one value (a
// pod pinned to a hostname: every node its own class) costs one map entry, not one map.
interface Level<T> {
  next: Map<unknown, Level<T>> | undefined;
  answers: Map<unknown, T> | undefined;
}

export class TupleMemo<T> {
  private readonly root: Level<T> = { next: undefined, answers: undefined };
  private empty: { answer: T } | undefined;

  get(parts: readonly unknown[], compute: () => T): T {
    const last = parts.length - 1;
    if (last < 0) return (this.empty ??= { answer: compute() }).answer;
    let level = this.root;
    for (let i = 0; i < last; i++) {
      const part = parts[i];
      level.next ??= new Map();
      let next = level.next.get(part);
      if (!next) level.next.set(part, (next = { next: undefined, answers: undefined }));
      level = next;
    }
    const answers = (level.answers ??= new Map());
    const key = parts[last];
    if (answers.has(key)) return answers.get(key) as T;
    const answer = compute();
    answers.set(key, answer);
    return answer;
  }
}
