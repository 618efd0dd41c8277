import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { podsLabelled } from '../../src/engine/match/podsLabelled.js';

const pod = (name: string, labels?: Record<string, string>): V1Pod => ({ metadata: { name, ...(labels ? { labels } : {}) } });

describe('podsLabelled', () => {
  const pods = [pod('a', { app: 'web', tier: 'front' }), pod('b'), pod('c', { app: 'db' }), pod('d', { app: 'web' }), pod('e', { App: 'web', 'app ': 'web' })];

  it('is the pods whose label has exactly that value, in their order', () => {
    expect(podsLabelled(pods, 'app', 'web').map((p) => p.metadata?.name)).toEqual(['a', 'd']);
    expect(podsLabelled(pods, 'app', 'db').map((p) => p.metadata?.name)).toEqual(['c']);
    expect(podsLabelled(pods, 'app', 'Web')).toEqual([]);
    expect(podsLabelled(pods, 'tier', 'front').map((p) => p.metadata?.name)).toEqual(['a']);
  });

  it('an empty value is a value, and an inherited property is no label', () => {
    const list = [pod('x', { app: '' }), pod('y')];
    expect(podsLabelled(list, 'app', '').map((p) => p.metadata?.name)).toEqual(['x']);
    expect(podsLabelled(list, 'constructor', '')).toEqual([]);
    expect(podsLabelled(list, 'toString', '')).toEqual([]);
  });

  it('indexes each list of pods apart', () => {
    const other = [pod('z', { app: 'web' })];
    expect(podsLabelled(other, 'app', 'web').map((p) => p.metadata?.name)).toEqual(['z']);
    expect(podsLabelled(pods, 'app', 'web').map((p) => p.metadata?.name)).toEqual(['a', 'd']);
  });
});
