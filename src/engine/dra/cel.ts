// CEL device selectors, evaluated with a maintained CEL library (@marcbachmann/cel-js) and the
// Kubernetes extensions DRA expressions use (k8s.io/dynamic-resource-allocation/cel): the
// `device` variable (driver, attributes and capacity by domain, allowMultipleAllocations),
// `quantity()` with its methods, and `semver()` versions. Attribute values keep their CEL types:
// int as int, version as a semver value, capacity as a quantity.
//
// An expression the library cannot evaluate (a syntax it does not parse, a function neither it
// nor this file provides) is `unsupported`: the node is "not checked", never failed on a guess.
// A lookup of an attribute the device lacks is a runtime error, as in the scheduler.
import type { V1Device } from '@kubernetes/client-node';
import { Environment } from '@marcbachmann/cel-js';
import { compare, parseQuantity, add, sub, value, type Quantity } from '../quantity/index.js';

class CelQuantity {
  constructor(readonly q: Quantity, readonly text: string) {}
}

class CelSemver {
  constructor(readonly parts: readonly [bigint, bigint, bigint], readonly text: string) {}
}

const SEMVER = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:[-+].*)?$/;

function semver(text: string): CelSemver {
  const m = SEMVER.exec(text);
  if (!m) throw new Error(`invalid semver: ${text}`);
  return new CelSemver([BigInt(m[1] ?? 0), BigInt(m[2] ?? 0), BigInt(m[3] ?? 0)], text);
}

function compareSemver(a: CelSemver, b: CelSemver): bigint {
  for (let i = 0; i < 3; i++) {
    const d = (a.parts[i] ?? 0n) - (b.parts[i] ?? 0n);
    if (d !== 0n) return d > 0n ? 1n : -1n;
  }
  return 0n;
}

function quantity(text: string): CelQuantity {
  return new CelQuantity(parseQuantity(text), text);
}

const environment = new Environment({ homogeneousAggregateLiterals: false })
  .registerType('Quantity', CelQuantity)
  .registerType('Semver', CelSemver)
  .registerVariable('device', 'map')
  .registerFunction('quantity(string): Quantity', quantity)
  .registerFunction('isQuantity(string): bool', (s: string) => {
    try {
      parseQuantity(s);
      return true;
    } catch {
      return false;
    }
  })
  .registerFunction('Quantity.compareTo(Quantity): int', (a: CelQuantity, b: CelQuantity) => BigInt(compare(a.q, b.q)))
  .registerFunction('Quantity.isGreaterThan(Quantity): bool', (a: CelQuantity, b: CelQuantity) => compare(a.q, b.q) > 0)
  .registerFunction('Quantity.isLessThan(Quantity): bool', (a: CelQuantity, b: CelQuantity) => compare(a.q, b.q) < 0)
  .registerFunction('Quantity.add(Quantity): Quantity', (a: CelQuantity, b: CelQuantity) => new CelQuantity(add(a.q, b.q), ''))
  .registerFunction('Quantity.sub(Quantity): Quantity', (a: CelQuantity, b: CelQuantity) => new CelQuantity(sub(a.q, b.q), ''))
  .registerFunction('Quantity.asInteger(): int', (a: CelQuantity) => value(a.q))
  .registerFunction('Quantity.isInteger(): bool', (a: CelQuantity) => a.q.nanos % 1_000_000_000n === 0n)
  .registerFunction('Quantity.asApproximateFloat(): double', (a: CelQuantity) => Number(a.q.nanos) / 1e9)
  .registerFunction('Quantity.sign(): int', (a: CelQuantity) => BigInt(compare(a.q, parseQuantity('0'))))
  .registerFunction('semver(string): Semver', semver)
  .registerFunction('isSemver(string): bool', (s: string) => SEMVER.test(s))
  .registerFunction('Semver.compareTo(Semver): int', compareSemver)
  .registerFunction('Semver.isGreaterThan(Semver): bool', (a: CelSemver, b: CelSemver) => compareSemver(a, b) > 0n)
  .registerFunction('Semver.isLessThan(Semver): bool', (a: CelSemver, b: CelSemver) => compareSemver(a, b) < 0n)
  .registerFunction('Semver.major(): int', (a: CelSemver) => a.parts[0])
  .registerFunction('Semver.minor(): int', (a: CelSemver) => a.parts[1])
  .registerFunction('Semver.patch(): int', (a: CelSemver) => a.parts[2]);

export type SelectorOutcome =
  | { kind: 'matches' }
  | { kind: 'fails' }
  /** The scheduler's evaluation fails too (a missing attribute, a value of the wrong type). */
  | { kind: 'runtimeError'; error: string }
  /** Outside what the library evaluates: the node is not checked. */
  | { kind: 'unsupported'; error: string };

/** An attribute as the device's CEL value: the attribute's single set field. */
function attributeValue(a: Record<string, unknown>): unknown {
  if (typeof a['int'] === 'number' || typeof a['int'] === 'string') return BigInt(a['int']);
  if (typeof a['bool'] === 'boolean') return a['bool'];
  if (typeof a['string'] === 'string') return a['string'];
  if (typeof a['version'] === 'string') {
    try {
      return semver(a['version']);
    } catch {
      return a['version'];
    }
  }
  return null;
}

/** Splits `domain/name` (or a bare name, in the driver's domain) as the scheduler's CEL map does. */
export function qualified(name: string, driver: string): { domain: string; id: string } {
  const slash = name.indexOf('/');
  return slash < 0 ? { domain: driver, id: name } : { domain: name.slice(0, slash), id: name.slice(slash + 1) };
}

export function celDevice(driver: string, device: V1Device): Record<string, unknown> {
  const attributes: Record<string, Record<string, unknown>> = {};
  for (const [name, attr] of Object.entries(device.attributes ?? {})) {
    const { domain, id } = qualified(name, driver);
    (attributes[domain] ??= {})[id] = attributeValue(attr as Record<string, unknown>);
  }
  const capacity: Record<string, Record<string, unknown>> = {};
  for (const [name, cap] of Object.entries(device.capacity ?? {})) {
    const { domain, id } = qualified(name, driver);
    const text = String(cap.value);
    try {
      (capacity[domain] ??= {})[id] = quantity(text);
    } catch {
      // A capacity the API server accepted is a valid quantity; an unparsable one is left out.
    }
  }
  return { driver, attributes, capacity, allowMultipleAllocations: device.allowMultipleAllocations ?? false };
}

const RUNTIME = /no such key|no such attribute|division by zero|invalid semver|QuantityError/i;

export function evaluateSelector(expression: string, device: Record<string, unknown>): SelectorOutcome {
  try {
    const result = environment.evaluate(expression, { device }) as unknown;
    if (result instanceof Promise) return { kind: 'unsupported', error: 'asynchronous result' };
    if (typeof result !== 'boolean') return { kind: 'runtimeError', error: `expression must evaluate to bool, got ${typeof result}` };
    return { kind: result ? 'matches' : 'fails' };
  } catch (e) {
    const error = e instanceof Error ? (e.message.split('\n')[0] ?? e.message) : String(e);
    if (e instanceof Error && RUNTIME.test(`${e.name} ${error}`)) return { kind: 'runtimeError', error };
    return { kind: 'unsupported', error };
  }
}

/** A CEL value as the report shows it: quantities and versions as written. */
export function showValue(v: unknown): string {
  if (v instanceof CelQuantity) return v.text;
  if (v instanceof CelSemver) return v.text;
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}
