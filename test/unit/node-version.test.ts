// The Node.js version check main.ts runs before loading anything else.
import { describe, expect, it } from 'vitest';
import { checkNodeVersion } from '../../src/cli/node-version.js';

describe('checkNodeVersion', () => {
  it.each<{ name: string; version: string; ok: boolean }>([
    { name: 'the pinned Node.js 24 will do', version: 'v24.21.0', ok: true },
    { name: 'exactly the minimum, 22.12.0, will do', version: 'v22.12.0', ok: true },
    { name: 'a later 22 minor will do', version: 'v22.20.1', ok: true },
    { name: 'a future major will do', version: 'v30.0.0', ok: true },
    { name: 'a version without the v will do', version: '23.1.0', ok: true },
    { name: '22.11 is one minor too old', version: 'v22.11.0', ok: false },
    { name: 'Node.js 20 is too old', version: 'v20.1.0', ok: false },
    { name: 'Node.js 18 is too old', version: 'v18.20.4', ok: false },
    { name: 'a minor that compares larger as text but smaller as a number is too old', version: 'v22.9.0', ok: false },
    { name: 'a version that does not parse is not trusted', version: 'banana', ok: false },
  ])('$name', ({ version, ok }) => {
    const message = checkNodeVersion(version);
    if (ok) {
      expect(message).toBeUndefined();
      return;
    }
    expect(message).toBe(
      `kubectl why-pending needs Node.js 22.12 or newer, found ${version}; install a current Node.js LTS (https://nodejs.org) and make it the first node on PATH`,
    );
  });
});
