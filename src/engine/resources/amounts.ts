// Resource amounts as the scheduler holds them (framework.Resource): cpu in millicores,
// everything else in whole units (bytes for memory and storage, count for pods and
// extended resources). Always bigint: never rounded through a float.
import { milliValue, parseQuantity, value } from '../quantity/index.js';

export type ResourceList = Record<string, bigint>;

function amountOf(resource: string, quantity: string | number): bigint {
  const parsed = parseQuantity(String(quantity));
  return resource === 'cpu' ? milliValue(parsed) : value(parsed);
}

export function toResourceList(list: Record<string, string | number> | undefined): ResourceList {
  const out: ResourceList = {};
  for (const [resource, quantity] of Object.entries(list ?? {})) out[resource] = amountOf(resource, quantity);
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
