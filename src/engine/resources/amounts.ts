// Resource amounts as the scheduler holds them (framework.Resource): cpu in millicores,
// everything else in whole units (bytes for memory and storage, count for pods and
// extended resources). Always bigint: never rounded through a float.
import { milliValue, parseQuantity, value } from '../quantity/index.js';

export type ResourceList = Record<string, bigint>;

// Amounts by quantity text: a cluster repeats a few dozen texts ("500m", "1Gi") across tens of
// thousands of containers, and parsing is most of what summing a node's pods costs. Errors are
// not kept: they are thrown again, from the parse, each time.
const cpuAmounts = new Map<string, bigint>();
const unitAmounts = new Map<string, bigint>();
const amountsKept = 10_000;

/** One quantity as the scheduler holds it: millicores for cpu, whole units otherwise. */
export function amountOf(resource: string, quantity: string | number): bigint {
  const text = String(quantity);
  const cache = resource === 'cpu' ? cpuAmounts : unitAmounts;
  const known = cache.get(text);
  if (known !== undefined) return known;
  const parsed = parseQuantity(text);
  const amount = resource === 'cpu' ? milliValue(parsed) : value(parsed);
  if (cache.size >= amountsKept) cache.clear();
  cache.set(text, amount);
  return amount;
}

// The same amounts as numbers, for sums over many pods: NaN where the amount is not a safe
// integer (then the caller takes the bigint).
const cpuNumbers = new Map<string, number>();
const unitNumbers = new Map<string, number>();

/** amountOf as a number, or NaN when it is not a safe integer. Throws as amountOf does. */
export function smallAmountOf(resource: string, quantity: string | number): number {
  const text = typeof quantity === 'string' ? quantity : String(quantity);
  const cache = resource === 'cpu' ? cpuNumbers : unitNumbers;
  const known = cache.get(text);
  if (known !== undefined) return known;
  const amount = amountOf(resource, text);
  const small = amount >= -BigInt(Number.MAX_SAFE_INTEGER) && amount <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(amount) : Number.NaN;
  if (cache.size >= amountsKept) cache.clear();
  cache.set(text, small);
  return small;
}

export function toResourceList(list: Record<string, string | number> | undefined): ResourceList {
  const out: ResourceList = {};
  // for...in, not Object.entries: each of 5,000 nodes' allocatable is read this way, and the
  // pairs would be garbage at once.
  for (const resource in list) {
    if (Object.hasOwn(list, resource)) out[resource] = amountOf(resource, list[resource] as string | number);
  }
  return out;
}

export function addInto(target: ResourceList, add: ResourceList): ResourceList {
  for (const [resource, amount] of Object.entries(add)) target[resource] = (target[resource] ?? 0n) + amount;
  return target;
}

export function sum(...lists: ResourceList[]): ResourceList {
  return lists.reduce((total, list) => addInto(total, list), {} as ResourceList);
}

export function maxOf(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = { ...a };
  for (const [resource, amount] of Object.entries(b)) {
    const current = out[resource];
    if (current === undefined || amount > current) out[resource] = amount;
  }
  return out;
}
