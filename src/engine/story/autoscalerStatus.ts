// cluster-autoscaler's status ConfigMap (default kube-system/cluster-autoscaler-status; CA's
// --namespace and --status-config-map-name change it, --write-status-configmap=false turns it
// off), key `status`, in the two formats CA has written:
// - YAML, since CA 1.30 (kubernetes/autoscaler PR #6375, "Convert status in
//   cluster-autoscaler-status to yaml and add error info for scale-up backoff"): the
//   ClusterAutoscalerStatus of cluster-autoscaler/clusterstate/api/types.go (commit
//   d610672804edab46a4931a26a9d11435cd698787): time, autoscalerStatus (Running|Initializing),
//   clusterWide {health, scaleUp, scaleDown}, nodeGroups [{name, health {status, minSize,
//   maxSize, cloudProviderTarget}, scaleUp {status: InProgress|Backoff|NoActivity|Unhealthy,
//   backoffInfo {errorCode, errorMessage}, lastProbeTime, lastTransitionTime}}]; example in
//   cluster-autoscaler/clusterstate/utils/status_test.yaml (commit
//   f1b063dcf4c0062c28b571966dc7a334214bb97b).
// - Text, up to CA 1.29: "Cluster-autoscaler status at <time>:\n" then GetReadableString of
//   clusterstate/api/utils.go (commit 1ff43d98ab49d3c2db78fea0f21c8f7b92c6f013 and later):
//   "Cluster-wide:" and "NodeGroups:" sections, each "  Name:        <id>" then condition
//   lines "  <Type>:%-12v <Status> (<message>)" with "LastProbeTime:" and
//   "LastTransitionTime:" lines (Go's time.String(), with a monotonic " m=+..." suffix). The
//   text format has no backoff error: a Backoff there says only that the group is backed off.
// Only this one key of this one ConfigMap is ever read; a text we cannot read is no status.
import { CORE_SCHEMA, load } from 'js-yaml';
import { toTime } from '../../snapshot/types.js';

export interface AutoscalerGroupStatus {
  name: string;
  /** Healthy | Unhealthy, as CA wrote it. */
  health?: string;
  /** InProgress | Backoff | NoActivity | Unhealthy (YAML), as CA wrote it. */
  scaleUp?: string;
  /** The scale-up condition's lastTransitionTime: since when it holds. */
  scaleUpSince?: number;
  /** YAML only: why the group is backed off (the cloud provider's error). */
  backoff?: { errorCode?: string; errorMessage?: string };
  minSize?: number;
  maxSize?: number;
  cloudProviderTarget?: number;
}

export interface AutoscalerStatus {
  format: 'yaml' | 'text';
  /** When CA wrote it. */
  time?: number;
  /** Running | Initializing (YAML only). */
  autoscalerStatus?: string;
  /** Cluster-wide health: Healthy | Unhealthy. */
  clusterHealth?: string;
  clusterHealthSince?: number;
  nodeGroups: AutoscalerGroupStatus[];
}

type Loose = Record<string, unknown>;

const asObject = (v: unknown): Loose | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : undefined);
const asString = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const asNumber = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Go's time.String() ("2024-01-05 14:42:56.011239739 +0000 UTC m=+1081500.5") or RFC 3339. */
function goTime(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(\.\d+)? ([+-]\d{2})(\d{2})/.exec(text.trim());
  if (!m) return toTime(text);
  const fraction = (m[3] ?? '').slice(0, 4);
  return toTime(`${m[1]}T${m[2]}${fraction}${m[4]}:${m[5]}`);
}

function fromYaml(doc: Loose): AutoscalerStatus {
  const clusterWide = asObject(doc['clusterWide']);
  const health = asObject(clusterWide?.['health']);
  const groups = Array.isArray(doc['nodeGroups']) ? doc['nodeGroups'] : [];
  const time = goTime(asString(doc['time']));
  const clusterHealth = asString(health?.['status']);
  const clusterHealthSince = toTime(asString(health?.['lastTransitionTime']));
  const autoscalerStatus = asString(doc['autoscalerStatus']);
  return {
    format: 'yaml',
    ...(time !== undefined ? { time } : {}),
    ...(autoscalerStatus ? { autoscalerStatus } : {}),
    ...(clusterHealth ? { clusterHealth } : {}),
    ...(clusterHealthSince !== undefined ? { clusterHealthSince } : {}),
    nodeGroups: groups.flatMap((g): AutoscalerGroupStatus[] => {
      const group = asObject(g);
      const name = asString(group?.['name']);
      if (!group || !name) return [];
      const h = asObject(group['health']);
      const up = asObject(group['scaleUp']);
      const info = asObject(up?.['backoffInfo']);
      const errorCode = asString(info?.['errorCode']);
      const errorMessage = asString(info?.['errorMessage']);
      const out: AutoscalerGroupStatus = { name };
      const set = <K extends keyof AutoscalerGroupStatus>(key: K, value: AutoscalerGroupStatus[K] | undefined) => {
        if (value !== undefined) out[key] = value;
      };
      set('health', asString(h?.['status']));
      set('scaleUp', asString(up?.['status']));
      set('scaleUpSince', toTime(asString(up?.['lastTransitionTime'])));
      if (errorCode || errorMessage) out.backoff = { ...(errorCode ? { errorCode } : {}), ...(errorMessage ? { errorMessage } : {}) };
      set('minSize', asNumber(h?.['minSize']));
      set('maxSize', asNumber(h?.['maxSize']));
      set('cloudProviderTarget', asNumber(h?.['cloudProviderTarget']));
      return [out];
    }),
  };
}

const header = /^Cluster-autoscaler status at (.*):$/;
const conditionLine = /^\s+(Health|ScaleUp|ScaleDown):\s+(\S+)(?: \((.*)\))?$/;
const transitionLine = /^\s+LastTransitionTime:\s+(.*)$/;
const nameLine = /^\s+Name:\s+(.*)$/;

function fromText(text: string): AutoscalerStatus | undefined {
  const lines = text.split('\n');
  const first = header.exec(lines[0]?.trim() ?? '');
  if (!first || !lines.some((l) => l.trim() === 'Cluster-wide:')) return undefined;
  const time = goTime(first[1]);
  const status: AutoscalerStatus = { format: 'text', ...(time !== undefined ? { time } : {}), nodeGroups: [] };
  let section: 'cluster' | 'groups' | undefined;
  let group: AutoscalerGroupStatus | undefined;
  let condition: string | undefined;
  for (const line of lines.slice(1)) {
    if (line.trim() === 'Cluster-wide:') section = 'cluster';
    else if (line.trim() === 'NodeGroups:') section = 'groups';
    const name = nameLine.exec(line);
    if (section === 'groups' && name) {
      group = { name: (name[1] ?? '').trim() };
      status.nodeGroups.push(group);
      continue;
    }
    const c = conditionLine.exec(line);
    if (c) {
      condition = c[1];
      const value = c[2] ?? '';
      if (section === 'cluster' && condition === 'Health') status.clusterHealth = value;
      if (section === 'groups' && group && condition === 'Health') {
        group.health = value;
        // "... cloudProviderTarget=2 (minSize=1, maxSize=5))" in the group's health message.
        const sizes = /minSize=(\d+), maxSize=(\d+)/.exec(c[3] ?? '');
        if (sizes) Object.assign(group, { minSize: Number(sizes[1]), maxSize: Number(sizes[2]) });
        const target = /cloudProviderTarget=(\d+)/.exec(c[3] ?? '');
        if (target) group.cloudProviderTarget = Number(target[1]);
      }
      if (section === 'groups' && group && condition === 'ScaleUp') group.scaleUp = value;
      continue;
    }
    const t = transitionLine.exec(line);
    if (t) {
      const since = goTime(t[1]);
      if (since === undefined) continue;
      if (section === 'cluster' && condition === 'Health') status.clusterHealthSince = since;
      if (section === 'groups' && group && condition === 'ScaleUp') group.scaleUpSince = since;
    }
  }
  return status;
}

/** The `status` value of cluster-autoscaler's ConfigMap, either format; undefined when it is neither. */
export function parseAutoscalerStatus(text: string | null | undefined): AutoscalerStatus | undefined {
  // A dump may hold `status: null` (read as absent, as every null field is).
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  if (header.test(text.split('\n')[0]?.trim() ?? '')) return fromText(text);
  let doc: unknown;
  try {
    doc = load(text, { schema: CORE_SCHEMA });
  } catch {
    return undefined;
  }
  const object = asObject(doc);
  if (!object || !('clusterWide' in object || 'nodeGroups' in object || 'autoscalerStatus' in object)) return undefined;
  return fromYaml(object);
}
