// A fake cluster behind the fake API server: serves GET of objects and of collections (all
// namespaces or one), with field selectors, label selectors and paging, the way kube-apiserver
// answers them for the fields why-pending uses. Paths listed in `forbid` answer 403.
import { afterEach } from 'vitest';
import type { Handler } from './fake-apiserver.js';
import { json, list, startFakeApiServer, status, type FakeApiServer } from './fake-apiserver.js';

// Any Kubernetes object; typed loosely so that client-node's V1Pod, V1Node... fit.
interface Obj {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** Objects by URL plural: `pods`, `nodes`, `events`, `replicasets`, `storageclasses`...; `version`: what `/version` answers (404 without). */
export type Objects = Partial<Record<string, object[]>>;

function field(object: Obj, path: string): string {
  let value: unknown = object;
  for (const part of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}

function matchesFields(object: Obj, selector: string | null): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const negated = term.includes('!=');
    const [path, value] = term.split(negated ? '!=' : '=') as [string, string];
    const actual = field(object, path);
    return negated ? actual !== value : actual === value;
  });
}

function splitTerms(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  if (current) out.push(current);
  return out;
}

function matchesLabels(object: Obj, selector: string | null): boolean {
  if (!selector) return true;
  const labels = object.metadata?.labels ?? {};
  return splitTerms(selector).every((raw) => {
    const term = raw.trim();
    let m = /^(\S+) (in|notin) \((.*)\)$/.exec(term);
    if (m) {
      const values = (m[3] ?? '').split(',');
      const has = Object.hasOwn(labels, m[1] ?? '');
      return m[2] === 'in' ? has && values.includes(labels[m[1] ?? ''] ?? '') : !has || !values.includes(labels[m[1] ?? ''] ?? '');
    }
    m = /^(\S+?)(==|=|!=)(\S*)$/.exec(term);
    if (m) return m[2] === '!=' ? labels[m[1] ?? ''] !== m[3] : labels[m[1] ?? ''] === m[3];
    if (term.startsWith('!')) return !Object.hasOwn(labels, term.slice(1));
    return Object.hasOwn(labels, term);
  });
}

const matchesPath = (path: string) => (f: string) => (f.endsWith('*') ? path.startsWith(f.slice(0, -1)) : path === f);

/**
 * Serves `objects`; answers 403 for any path in `forbid` (exact, or a prefix ending in `*`), and
 * 404 for any in `notServed` (an API group the server does not have, such as karpenter.sh).
 */
function clusterRoute(objects: Objects, forbid: string[] = [], notServed: string[] = []): Handler {
  return (_req, res, seen) => {
    if (notServed.some(matchesPath(seen.path))) return json(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
    const forbidden = forbid.some(matchesPath(seen.path));
    if (forbidden) return json(res, 403, status(403, 'Forbidden', `${seen.path} is forbidden: User "alice" cannot get it`));
    if (seen.path === '/version') {
      const info = objects['version']?.[0];
      return info ? json(res, 200, info) : json(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
    }
    const parts = seen.path.split('/').filter(Boolean);
    // /api/v1/... or /apis/<group>/<version>/...
    const rest = parts[0] === 'api' ? parts.slice(2) : parts.slice(3);
    let namespace: string | undefined;
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      namespace = rest[1];
      rest.splice(0, 2);
    }
    const [plural, name] = rest as [string, string | undefined];
    const all = ((objects[plural] ?? []) as Obj[]).filter((o) => namespace === undefined || (o.metadata?.namespace ?? 'default') === namespace);
    if (name !== undefined) {
      const found = all.find((o) => o.metadata?.name === name);
      return found ? json(res, 200, found) : json(res, 404, status(404, 'NotFound', `${plural} "${name}" not found`));
    }
    const selected = all.filter((o) => matchesFields(o, seen.query.get('fieldSelector')) && matchesLabels(o, seen.query.get('labelSelector')));
    const limit = Number(seen.query.get('limit') ?? '0');
    const start = Number(seen.query.get('continue') ?? '0');
    const page = limit > 0 ? selected.slice(start, start + limit) : selected;
    const next = limit > 0 && start + limit < selected.length ? String(start + limit) : undefined;
    json(res, 200, list(page, 'List', next));
  };
}

/**
 * For a test file: `cluster(objects, forbid)` starts a fake API server serving `objects`
 * (403 for the `forbid` routes, 404 for the `notServed` ones); every server started is closed after each test.
 */
export function fakeClusters(): (objects: Objects, forbid?: string[], notServed?: string[]) => Promise<FakeApiServer> {
  const servers: FakeApiServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  return async (objects, forbid = [], notServed = []) => {
    const server = await startFakeApiServer({ '*': clusterRoute(objects, forbid, notServed) });
    servers.push(server);
    return server;
  };
}
