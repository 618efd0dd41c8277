// NodePorts, case for case with kube-scheduler's own table (nodeports/node_ports_test.go
// TestNodePorts; pods there are "PROTOCOL/hostIP/port"), plus the pods already on the node:
// upstream fills NodeInfo.UsedPorts with schedutil.GetHostPorts, which counts regular
// containers and restartable (sidecar) init containers only.
import type { V1ContainerPort } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import rule, { hostPorts, overlapOf, type HostPort } from '../../../src/engine/rules/NodePorts.js';
import { node, pod, type PodBuilder } from '../../support/builders.js';
import { runRule } from '../../support/rules.js';

/** upstream newPod(host, "UDP/127.0.0.1/8080", ...): one container with those host ports. */
function withPorts(name: string, ...specs: string[]): PodBuilder {
  const b = pod(name);
  for (const spec of specs) {
    const [protocol = 'TCP', hostIP = '', port = '0'] = spec.split('/');
    b.hostPort(Number(port), protocol, hostIP);
  }
  return b;
}

/** An init container with these host ports; a sidecar when `sidecar` (restartPolicy Always). */
function initPorts(b: PodBuilder, sidecar: boolean, ...ports: number[]): PodBuilder {
  return b.with((p) => {
    const c = { name: sidecar ? 'sidecar' : 'init', image: 'init', ports: ports.map((n): V1ContainerPort => ({ containerPort: n, hostPort: n, protocol: 'TCP' })) };
    (p.spec!.initContainers ??= []).push(sidecar ? { ...c, restartPolicy: 'Always' } : c);
  });
}

const noPorts = (name = 'p') => pod(name).with((p) => (p.spec!.containers = [{ name: 'app', image: 'app' }]));

// [upstream name, incoming pod, the pod on the node, fits]
const upstream: [string, PodBuilder, PodBuilder, boolean][] = [
  ['skip filter', noPorts(), withPorts('a'), true],
  ['other port', withPorts('p', 'UDP/127.0.0.1/8080'), withPorts('a', 'UDP/127.0.0.1/9090'), true],
  ['same udp port', withPorts('p', 'UDP/127.0.0.1/8080'), withPorts('a', 'UDP/127.0.0.1/8080'), false],
  ['same tcp port', withPorts('p', 'TCP/127.0.0.1/8080'), withPorts('a', 'TCP/127.0.0.1/8080'), false],
  ['different host ip', withPorts('p', 'TCP/127.0.0.1/8080'), withPorts('a', 'TCP/127.0.0.2/8080'), true],
  ['different protocol', withPorts('p', 'UDP/127.0.0.1/8080'), withPorts('a', 'TCP/127.0.0.1/8080'), true],
  ['second udp port conflict', withPorts('p', 'UDP/127.0.0.1/8000', 'UDP/127.0.0.1/8080'), withPorts('a', 'UDP/127.0.0.1/8080'), false],
  ['first tcp port conflict', withPorts('p', 'TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8080'), withPorts('a', 'TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8081'), false],
  ['first tcp port conflict due to 0.0.0.0 hostIP', withPorts('p', 'TCP/0.0.0.0/8001'), withPorts('a', 'TCP/127.0.0.1/8001'), false],
  ['TCP hostPort conflict due to 0.0.0.0 hostIP', withPorts('p', 'TCP/10.0.10.10/8001', 'TCP/0.0.0.0/8001'), withPorts('a', 'TCP/127.0.0.1/8001'), false],
  ['second tcp port conflict to 0.0.0.0 hostIP', withPorts('p', 'TCP/127.0.0.1/8001'), withPorts('a', 'TCP/0.0.0.0/8001'), false],
  ['second different protocol', withPorts('p', 'UDP/127.0.0.1/8001'), withPorts('a', 'TCP/0.0.0.0/8001'), true],
  ['UDP hostPort conflict due to 0.0.0.0 hostIP', withPorts('p', 'UDP/127.0.0.1/8001'), withPorts('a', 'TCP/0.0.0.0/8001', 'UDP/0.0.0.0/8001'), false],
  ['non-sidecar initContainer using hostPort', initPorts(noPorts(), false, 8001), withPorts('a', 'TCP/0.0.0.0/8001'), true],
  ['TCP hostPort conflict from sidecar initContainer', initPorts(noPorts(), true, 8001), withPorts('a', 'TCP/0.0.0.0/8001'), false],
];

// The other side: which ports the pods already on the node hold (NodeInfo.UsedPorts).
const existing: [string, PodBuilder, PodBuilder, boolean][] = [
  ["a plain init container of a pod on the node holds no port (it has exited)", withPorts('p', 'TCP//8001'), initPorts(noPorts('a'), false, 8001), true],
  ['a sidecar of a pod on the node holds its port for the pod\'s whole life', withPorts('p', 'TCP//8001'), initPorts(noPorts('a'), true, 8001), false],
  ['a sidecar wanting the port a sidecar on the node holds', initPorts(noPorts(), true, 8001), initPorts(noPorts('a'), true, 8001), false],
  ['a containerPort without hostPort holds nothing', withPorts('p', 'TCP//8080'), pod('a').with((p) => (p.spec!.containers[0]!.ports = [{ containerPort: 8080 }])), true],
  ['an empty protocol is TCP and an empty hostIP is 0.0.0.0', withPorts('p', 'TCP/10.0.0.1/53'), pod('a').with((p) => (p.spec!.containers[0]!.ports = [{ containerPort: 53, hostPort: 53 }])), false],
];

describe('NodePorts, upstream TestNodePorts', () => {
  it.each([...upstream, ...existing])('%s', (_name, incoming, onNode, fits) => {
    const reasons = runRule(rule, incoming.obj(), node('n').obj(), { pods: [onNode.on('n').obj()] });
    expect(reasons.length === 0).toBe(fits);
    for (const r of reasons) {
      expect(r.code).toBe('Unschedulable');
      expect(r.detail.kind === 'hostPortInUse' && r.detail.usedBy.map((u) => u.name)).toEqual(['a']);
    }
  });

  it('names every wanted port that is taken, with the pod that holds it', () => {
    const reasons = runRule(rule, withPorts('p', 'TCP//80', 'TCP//443', 'UDP//53').obj(), node('n').obj(), {
      pods: [withPorts('a', 'TCP//80').on('n').obj(), withPorts('b', 'TCP/10.0.0.2/443').on('n').obj()],
    });
    expect(reasons.map((r) => r.detail)).toEqual([
      { kind: 'hostPortInUse', wanted: { port: 80, protocol: 'TCP', hostIP: '0.0.0.0' }, usedBy: [{ namespace: 'default', name: 'a', port: { port: 80, protocol: 'TCP', hostIP: '0.0.0.0' }, overlap: 'wantedEveryAddress' }] },
      { kind: 'hostPortInUse', wanted: { port: 443, protocol: 'TCP', hostIP: '0.0.0.0' }, usedBy: [{ namespace: 'default', name: 'b', port: { port: 443, protocol: 'TCP', hostIP: '10.0.0.2' }, overlap: 'wantedEveryAddress' }] },
    ]);
  });

  it('a finished pod frees its port', () => {
    expect(runRule(rule, withPorts('p', 'TCP//8080').obj(), node('n').obj(), { pods: [withPorts('a', 'TCP//8080').on('n').phase('Succeeded').obj()] })).toEqual([]);
  });
});

describe('hostPorts (schedutil.GetHostPorts)', () => {
  it('lists sidecars first, then regular containers, and leaves plain init containers out', () => {
    const p = initPorts(initPorts(withPorts('p', 'TCP//80'), false, 9000), true, 9001).obj();
    expect(hostPorts(p).map((h) => h.port)).toEqual([9001, 80]);
  });
});

describe('overlapOf: why two host ports collide (HostPortInfo.CheckConflict)', () => {
  const at = (hostIP: string, port = 8080, protocol = 'TCP'): HostPort => ({ hostIP, port, protocol });
  it.each([
    ['the same address', at('10.0.0.13'), at('10.0.0.13'), 'sameAddress'],
    ["the pod's 0.0.0.0 against a pod on 10.0.0.13: 0.0.0.0 wants every address", at('0.0.0.0'), at('10.0.0.13'), 'wantedEveryAddress'],
    ['the pod on 10.0.0.13 against a pod on 0.0.0.0: it already has every address', at('10.0.0.13'), at('0.0.0.0'), 'heldOnEveryAddress'],
    ['both on 0.0.0.0: named from the wanted side, which CheckConflict tests first', at('0.0.0.0'), at('0.0.0.0'), 'wantedEveryAddress'],
    ['two different addresses do not collide', at('10.0.0.13'), at('10.0.0.14'), undefined],
    ['another port does not collide, even on 0.0.0.0', at('0.0.0.0'), at('0.0.0.0', 8081), undefined],
    ['another protocol does not collide', at('0.0.0.0'), at('0.0.0.0', 8080, 'UDP'), undefined],
  ] as const)('%s', (_name, wanted, held, overlap) => {
    expect(overlapOf(wanted, held)).toBe(overlap);
  });

  it("names the other pod's hostIP in the reason: 10.0.0.13:8080 still conflicts with the pod's 0.0.0.0:8080", () => {
    const reasons = runRule(rule, withPorts('p', 'TCP//8080').obj(), node('n').obj(), { pods: [withPorts('a', 'TCP/10.0.0.13/8080').on('n').obj()] });
    expect(reasons.map((r) => r.detail)).toEqual([
      { kind: 'hostPortInUse', wanted: at('0.0.0.0'), usedBy: [{ namespace: 'default', name: 'a', port: at('10.0.0.13'), overlap: 'wantedEveryAddress' }] },
    ]);
  });
});
