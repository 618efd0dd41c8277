// The DRA requests a fix can aim at: each request of a claim that no free device meets on a
// failing node, with that node, for the device fixes (deviceToleration.ts, deviceCapacity.ts).
import type { NodeVerdict } from '../judge.js';
import type { RequestShortfall } from '../rules/DynamicResources.js';
import { failing, failures } from './nodes.js';
import type { FixInput } from './types.js';

export interface ShortRequest {
  node: string;
  /** namespace/name of the claim. */
  claim: string;
  request: RequestShortfall;
}

export function shortRequests({ judgement }: FixInput): ShortRequest[] {
  if (!failures(judgement).plugins.has('DynamicResources')) return [];
  const out: ShortRequest[] = [];
  for (const node of failing(judgement) as NodeVerdict[]) {
    for (const reason of node.reasons) {
      const d = reason.detail;
      if (d.kind !== 'devicesShort') continue;
      for (const request of d.requests) if (request.free === 0) out.push({ node: node.name, claim: d.claim, request });
    }
  }
  return out;
}
