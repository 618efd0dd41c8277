import { describe, expect, it } from 'vitest';
import { parseSelector } from '../../src/cli/selector.js';
import { UsageError } from '../../src/errors.js';
import { formatLabelSelector, matchesLabelSelector } from '../../src/engine/match/labelSelector.js';

describe('-l/--selector, as kubectl reads it', () => {
  it.each<{ text: string; labels: Record<string, string>; matches: boolean; formatted: string }>([
    { text: 'app=web', labels: { app: 'web' }, matches: true, formatted: 'app in (web)' },
    { text: 'app==web', labels: { app: 'api' }, matches: false, formatted: 'app in (web)' },
    { text: 'app!=web', labels: {}, matches: true, formatted: 'app notin (web)' },
    { text: 'tier in (a, b),app', labels: { tier: 'b', app: 'x' }, matches: true, formatted: 'app,tier in (a,b)' },
    { text: 'tier notin (a,b)', labels: { tier: 'a' }, matches: false, formatted: 'tier notin (a,b)' },
    { text: '!canary', labels: { canary: 'yes' }, matches: false, formatted: '!canary' },
    { text: 'app=web,!canary', labels: { app: 'web' }, matches: true, formatted: 'app in (web),!canary' },
  ])('$text on $labels: $matches', ({ text, labels, matches, formatted }) => {
    const selector = parseSelector(text);
    expect(matchesLabelSelector(selector, labels)).toBe(matches);
    expect(formatLabelSelector(selector)).toBe(formatted);
  });

  it.each(['app=(web', 'app=web,', 'a b', 'in (x)', 'app in (a', 'app=a=b'])('%s is refused with a usage error', (text) => {
    expect(() => parseSelector(text)).toThrow(UsageError);
  });
});
