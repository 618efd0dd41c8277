// A pod waiting for its devices to be made ready, in words (engine/story/deviceBinding.ts).
import type { DeviceBindingStory } from '../engine/story/deviceBinding.js';
import { instant } from './bound.js';
import { list } from './format.js';

/** DynamicResourcesArgs.bindingTimeout's default: how long PreBind waits before giving up. */
const defaultTimeoutSeconds = 600;

export function deviceBindingSentence(pod: string, s: DeviceBindingStory): string {
  const waiting = s.devices.flatMap((d) => d.conditions.filter((c) => !d.met.includes(c)));
  const what = waiting.length > 0 ? `binding condition ${list([...new Set(waiting)])}` : 'its binding conditions';
  const since = s.since !== undefined ? ` since ${instant(s.since)}` : '';
  return `Pod ${pod} waits for its devices to be made ready on node ${s.node}: ${what}, set by the device's driver, is not True yet${since}; the scheduler gives up after ${defaultTimeoutSeconds} s by default.`;
}

export function deviceBindingLines(s: DeviceBindingStory): string[] {
  const out = s.devices.map((d) => {
    const state = d.failed.length > 0 ? `failure condition ${list(d.failed)} is True: the attempt fails` : d.met.length > 0 ? `${list(d.met)} True, waiting for ${list(d.conditions.filter((c) => !d.met.includes(c)))}` : `waiting for ${list(d.conditions)}`;
    return `device ${d.device} of ResourceClaim ${d.claim}: ${state}${d.failureConditions.length > 0 ? ` (fails on ${list(d.failureConditions)})` : ''}`;
  });
  if (s.lastFailure) out.push(`the last attempt failed: ${s.lastFailure}`);
  out.push(`what sets them: the DRA driver of the device (its controller or its kubelet plugin); check that it runs and what it logs for the claim`);
  return out;
}
