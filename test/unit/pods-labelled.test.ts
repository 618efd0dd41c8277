import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { anchorOf, mayMatch } from '../../src/engine/match/podsLabelled.js';

const podsLabelled = (pods: readonly V1Pod[], key: string, value: string) => mayMatch(pods, [key, value]);

const pod = (name: string, labels?: Record<string, string>): V1Pod => ({ metadata: { name, ...(labels ? { labels } : {}) } });

describe('mayMatch', () => {
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

  it('is every pod for a selector without a matchLabels entry', () => {
    expect(anchorOf({ matchExpressions: [{ key: 'app', operator: 'Exists' }] })).toBeUndefined();
    expect(anchorOf(undefined)).toBeUndefined();
    expect(mayMatch(pods, anchorOf({ matchExpressions: [{ key: 'app', operator: 'Exists' }] }))).toBe(pods);
    expect(anchorOf({ matchLabels: { app: 'web' } })).toEqual(['app', 'web']);
  });
});
