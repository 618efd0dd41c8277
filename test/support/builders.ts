// Small builders for test inputs, in the spirit of the scheduler's st.MakePod().Req(...).Obj().
import type {
  V1Container,
  V1Node,
  V1NodeSelectorRequirement,
  V1ObjectMeta,
  V1Pod,
  V1Taint,
  V1Toleration,
} from '@kubernetes/client-node';
import { buildContext } from '../../src/engine/context.js';
import type { RuleContext } from '../../src/engine/model.js';
import { emptyCollections, type Collections, type Gap, type Snapshot } from '../../src/snapshot/types.js';

type Resources = Record<string, string>;

/**
 * What every builder shares: the object, changed in place by the builder's methods, and copied
 * out whole by obj(), so that one builder can go on to make a variant.
 */
export abstract class ObjectBuilder<T extends { metadata?: V1ObjectMeta }> {
  protected constructor(protected readonly value: T) {}
  labels(labels: Record<string, string>): this {
    const metadata = (this.value.metadata ??= {});
    metadata.labels = { ...metadata.labels, ...labels };
    return this;
  }
  annotate(annotations: Record<string, string>): this {
    const metadata = (this.value.metadata ??= {});
    metadata.annotations = { ...metadata.annotations, ...annotations };
    return this;
  }
  /** Escape hatch for fields without a builder method. */
  with(mutate: (value: T) => void): this {
    mutate(this.value);
    return this;
  }
  obj(): T {
    return structuredClone(this.value);
  }
}

export class PodBuilder extends ObjectBuilder<V1Pod> {
  constructor(name: string, namespace = 'default') {
    super({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace, uid: `uid-${namespace}-${name}` },
      spec: { containers: [{ name: 'app', image: 'app' }] },
      status: { phase: 'Pending' },
    });
  }
  private get spec() {
    return this.value.spec!;
  }
  /** Requests of the first container. */
  req(requests: Resources, limits?: Resources): this {
    const c = this.spec.containers[0]!;
    c.resources = { requests, ...(limits ? { limits } : {}) };
    return this;
  }
  container(name: string, requests?: Resources, limits?: Resources): this {
    const c: V1Container = { name, image: name };
    if (requests || limits) c.resources = { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) };
    this.spec.containers.push(c);
    return this;
  }
  init(name: string, requests: Resources, sidecar = false): this {
    const c: V1Container = { name, image: name, resources: { requests } };
    if (sidecar) c.restartPolicy = 'Always';
    (this.spec.initContainers ??= []).push(c);
    return this;
  }
  overhead(overhead: Resources): this {
    this.spec.overhead = overhead;
    return this;
  }
  podLevel(requests: Resources): this {
    this.spec.resources = { requests };
    return this;
  }
  tolerate(...tolerations: V1Toleration[]): this {
    (this.spec.tolerations ??= []).push(...tolerations);
    return this;
  }
  nodeSelector(selector: Record<string, string>): this {
    this.spec.nodeSelector = selector;
    return this;
  }
  /** Adds one required node-affinity term made of these requirements. */
  affinityTerm(...matchExpressions: V1NodeSelectorRequirement[]): this {
    const affinity = (this.spec.affinity ??= {});
    const nodeAffinity = (affinity.nodeAffinity ??= {});
    const required = (nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution ??= { nodeSelectorTerms: [] });
    required.nodeSelectorTerms.push({ matchExpressions });
    return this;
  }
  matchFieldsTerm(...nodeNames: string[]): this {
    const affinity = (this.spec.affinity ??= {});
    const nodeAffinity = (affinity.nodeAffinity ??= {});
    const required = (nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution ??= { nodeSelectorTerms: [] });
    required.nodeSelectorTerms.push({ matchFields: [{ key: 'metadata.name', operator: 'In', values: nodeNames }] });
    return this;
  }
  hostPort(port: number, protocol = 'TCP', hostIP?: string): this {
    const c = this.spec.containers[0]!;
    (c.ports ??= []).push({ containerPort: port, hostPort: port, protocol, ...(hostIP ? { hostIP } : {}) });
    return this;
  }
  on(nodeName: string): this {
    this.spec.nodeName = nodeName;
    this.value.status = { phase: 'Running' };
    return this;
  }
  phase(phase: string): this {
    this.value.status = { ...this.value.status, phase };
    return this;
  }
}

class NodeBuilder extends ObjectBuilder<V1Node> {
  constructor(name: string) {
    super({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name } },
      spec: {},
      status: {
        allocatable: { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' },
        capacity: { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' },
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    });
  }
  allocatable(resources: Resources): this {
    this.value.status!.allocatable = { ...this.value.status!.allocatable, ...resources };
    this.value.status!.capacity = { ...this.value.status!.capacity, ...resources };
    return this;
  }
  zone(zone: string): this {
    return this.labels({ 'topology.kubernetes.io/zone': zone });
  }
  taint(key: string, value: string | undefined, effect: string): this {
    const taint: V1Taint = { key, effect, ...(value !== undefined ? { value } : {}) };
    (this.value.spec!.taints ??= []).push(taint);
    return this;
  }
  cordon(): this {
    this.value.spec!.unschedulable = true;
    return this.taint('node.kubernetes.io/unschedulable', undefined, 'NoSchedule');
  }
}

export const pod = (name: string, namespace?: string) => new PodBuilder(name, namespace);
export const node = (name: string) => new NodeBuilder(name);

export function snapshotOf(objects: Partial<Collections>, gaps: Gap[] = [], kind: 'dump' | 'live' = 'dump'): Snapshot {
  return { source: { kind, description: 'test' }, objects: { ...emptyCollections(), ...objects }, gaps };
}

/** The rule context for `target` in a cluster of `nodes` and `others` (pods, claims, ...). */
export function contextFor(target: V1Pod, nodes: V1Node[], others: Partial<Collections> = {}): RuleContext {
  const pods = [...(others.pods ?? []), target];
  return buildContext(snapshotOf({ ...others, nodes, pods }), target);
}
