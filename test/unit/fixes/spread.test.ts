// A spread failure that only a domain the pod can never use causes (every node of it tainted,
// nodeTaintsPolicy Ignore) is said so, and nodeTaintsPolicy: Honor is offered as the correction.
import { describe, expect, it } from 'vitest';
import { spread } from '../../support/affinity-builders.js';
import { node, pod } from '../../support/builders.js';
import { fixesFor } from '../../support/fixes.js';
import { buildContext } from '../../../src/engine/context.js';
import { judge } from '../../../src/engine/judge.js';
import { ruleSet } from '../../../src/messages/registry.js';
import { snapshotOf } from '../../support/builders.js';

const zone = (name: string, z: string) => node(name).labels({ zone: z });
const web = (name: string, on: string) => pod(name, 'shop').labels({ app: 'web' }).on(on).obj();
const cluster = () => [zone('a-1', 'a').obj(), zone('b-1', 'b').obj(), zone('c-1', 'c').taint('dedicated', 'batch', 'NoSchedule').obj()];

describe('a spread that only an untolerable domain breaks', () => {
  const target = (options: Record<string, unknown> = {}) => pod('web-2', 'shop').labels({ app: 'web' }).with(spread(1, 'zone', { app: 'web' }, options)).obj();

  it('says so on the nodes it fails, and offers nodeTaintsPolicy: Honor as a correction that frees them', () => {
    const pods = [web('web-0', 'a-1'), web('web-1', 'b-1')];
    const ctx = buildContext(snapshotOf({ nodes: cluster(), pods: [...pods, target()] }), target());
    const verdicts = judge(ruleSet.rules, ctx).nodes;
    expect(verdicts.find((n) => n.name === 'a-1')?.reasons.map((r) => r.detail)).toEqual([expect.objectContaining({ kind: 'spreadSkewExceeded', onlyTaintedDomains: ['c'] })]);
    const fixes = fixesFor(target(), cluster(), { pods });
    expect(fixes[0]).toMatchObject({ class: 'correction', makesFit: ['a-1', 'b-1'], changes: [{ kind: 'honorTaintsInSpread', index: 0, topologyKey: 'zone' }] });
  });

  it('offers nothing of the kind where the skew is real without the tainted domain', () => {
    const pods = [web('web-0', 'a-1'), web('web-1', 'a-1')];
    const fixes = fixesFor(target(), cluster(), { pods });
    expect(fixes.flatMap((f) => f.changes).filter((c) => c.kind === 'honorTaintsInSpread')).toEqual([]);
  });

  it('already Honor: nothing to offer, and nothing said', () => {
    const pods = [web('web-0', 'a-1'), web('web-1', 'b-1')];
    const fixes = fixesFor(target({ nodeTaintsPolicy: 'Honor' }), cluster(), { pods });
    expect(fixes.flatMap((f) => f.changes).filter((c) => c.kind === 'honorTaintsInSpread')).toEqual([]);
  });
});
