// Which Kubernetes release's scheduler the replay follows: the cluster's, from its version
// (Snapshot.cluster), where the filters behave differently from one minor release to another
// with the release's default feature gates (ARCHITECTURE.md, "Releases"). A cluster whose
// version is unknown is replayed as the newest release modelled, and the diagnosis says so.
import type { Snapshot } from '../snapshot/types.js';
import type { RequestRules } from './resources/requests.js';

/** The newest minor release modelled: a newer cluster, or one of unknown version, is replayed as it. */
export const newestMinor = 37;
/** The oldest minor release told apart (SidecarContainers came in 1.28): an older cluster is replayed as it. */
export const oldestMinor = 28;

export interface Release {
  /** The apiserver's gitVersion as the input gives it, when it does. */
  version?: string;
  /** The minor release (of 1.x) whose rules are replayed. */
  minor: number;
  /** True when the input does not give a version that reads as 1.x: the newest release is replayed. */
  assumed: boolean;
}

/** What a diagnosis says of the release it replayed (Diagnosis.cluster, `cluster` in -o json). */
export interface ClusterRelease {
  /** The cluster's version as the input gives it (`v1.34.4`); absent when it does not. */
  version?: string;
  /** The release whose filters and request arithmetic were replayed: `1.34`. */
  rulesOf: string;
  /** True when the cluster's version is unknown (or not a 1.x version): the newest release modelled was replayed. */
  assumed: boolean;
}

export function clusterRelease(release: Release): ClusterRelease {
  return { ...(release.version !== undefined ? { version: release.version } : {}), rulesOf: `1.${release.minor}`, assumed: release.assumed };
}

/** `v1.34.4`, `v1.33.5-eks-3025e55`, `1.31` -> the minor release; undefined for anything else. */
export function minorOf(version: string): number | undefined {
  const m = /^v?1\.(\d{1,3})(?![\d])/.exec(version.trim());
  return m ? Number(m[1]) : undefined;
}

const releases = new WeakMap<Snapshot, Release>();

/** The release the snapshot's cluster runs, clamped to those modelled; read once per snapshot. */
export function releaseOf(snapshot: Snapshot): Release {
  let release = releases.get(snapshot);
  if (!release) {
    const version = snapshot.cluster?.version;
    const minor = version === undefined ? undefined : minorOf(version);
    release = {
      ...(version !== undefined ? { version } : {}),
      minor: minor === undefined ? newestMinor : Math.min(newestMinor, Math.max(oldestMinor, minor)),
      assumed: minor === undefined,
    };
    releases.set(snapshot, release);
  }
  return release;
}

// One object per combination: the request arithmetic keeps a cache per rules object.
const requestRuleObjects = new Map<string, RequestRules>();

/**
 * How the release's scheduler counts a pod's request (k8s.io/component-helpers/resource
 * PodRequests, as noderesources/fit.go and the NodeInfo of bound pods call it):
 * - PodLevelResources, beta and on by default from 1.34 (alpha, off, in 1.32 and 1.33): pod-level
 *   `spec.resources` replaces the containers' cpu and memory (SkipPodLevelResources before);
 * - InPlacePodVerticalScaling, beta and on by default from 1.33 (GA 1.35): a bound pod counts the
 *   larger of its spec and its status's allocated or actual resources (UseStatusResources).
 */
function requestRulesOf(minor: number): RequestRules {
  const rules: RequestRules = { podLevelResources: minor >= 34, statusResources: minor >= 33 };
  const key = `${rules.podLevelResources}/${rules.statusResources}`;
  let shared = requestRuleObjects.get(key);
  if (!shared) requestRuleObjects.set(key, (shared = Object.freeze(rules)));
  return shared;
}

/** The snapshot's release's request arithmetic. */
export function requestRulesFor(snapshot: Snapshot): RequestRules {
  return requestRulesOf(releaseOf(snapshot).minor);
}

/**
 * SidecarContainers, beta and on by default from 1.29 (alpha, off, in 1.28): with it off,
 * NodeResourcesFit's PreFilter refuses a pod with a restartable init container.
 */
export function sidecarsEnabled(minor: number): boolean {
  return minor >= 29;
}

/**
 * Since kubernetes/kubernetes PR #131345 (1.34), NodeResourcesFit says UnschedulableAndUnresolvable
 * for a request above the node's whole allocatable (preemption cannot help); Unschedulable before.
 */
export function unresolvableWhenAboveAllocatable(minor: number): boolean {
  return minor >= 34;
}

/**
 * DRAExtendedResource, beta and on by default from 1.36 (alpha, off, in 1.34 and 1.35): an
 * extended resource a DeviceClass serves is DynamicResources' to allocate on nodes without it.
 */
export function draExtendedResourcesEnabled(minor: number): boolean {
  return minor >= 36;
}

/** The DRA features a release's scheduler allocates with, by their gates' defaults (kube_features.go). */
export interface DraFeatures {
  /** DRADeviceTaints: beta and on in 1.36, GA in 1.37 (alpha, off, before). */
  deviceTaints: boolean;
  /** DRADeviceTaintRules: GA and on in 1.37 (beta but off in 1.36). */
  deviceTaintRules: boolean;
  /** DRAPartitionableDevices: beta and on from 1.36; before, a device that consumes counters is never allocated. */
  partitionableDevices: boolean;
  /** DRAConsumableCapacity: beta and on from 1.36. */
  consumableCapacity: boolean;
}

export function draFeatures(minor: number): DraFeatures {
  return { deviceTaints: minor >= 36, deviceTaintRules: minor >= 37, partitionableDevices: minor >= 36, consumableCapacity: minor >= 36 };
}
