// Formatting shared by messages and reporters: kubectl's conventions (`<none>`, quantities as
// Kubernetes writes them, `key=value:Effect`).
import { formatResource } from '../engine/quantity/index.js';

export function quantity(resource: string, amount: bigint): string {
  return formatResource(resource, amount);
}

export function quote(text: string): string {
  return JSON.stringify(text);
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function list(items: string[], conjunction = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}
