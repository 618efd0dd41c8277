// Big dumps for the bench, written as `kubectl get nodes,pods -A -o yaml|json` writes them
// (managedFields, node images, env and probes included), streamed to disk in chunks: a 500 MB
// file is never one string. One template object per kind, rendered once, then numbered.
import { closeSync, openSync, writeSync } from 'node:fs';
import { stringify } from 'yaml';

const zones = ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'];

function node(): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        'csi.volume.kubernetes.io/nodeid': '{"ebs.csi.aws.com":"i-0__N__"}',
      },
      creationTimestamp: '2026-01-10T08:00:00Z',
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/instance-type': 'm6i.2xlarge',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': 'node-__N__',
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': 'm6i.2xlarge',
        'topology.kubernetes.io/region': 'eu-west-1',
        'topology.kubernetes.io/zone': '__ZONE__',
      },
      managedFields: [
        {
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': { 'f:annotations': { '.': {}, 'f:node.alpha.kubernetes.io/ttl': {} }, 'f:labels': Object.fromEntries(['arch', 'hostname', 'os', 'instance-type', 'zone', 'region'].map((k) => [`f:${k}`, {}])) },
            'f:spec': { 'f:podCIDR': {}, 'f:podCIDRs': { '.': {}, 'v:"10.0.0.0/24"': {} }, 'f:providerID': {} },
          },
          manager: 'kube-controller-manager',
          operation: 'Update',
          time: '2026-01-10T08:00:10Z',
        },
        {
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:status': {
              'f:allocatable': { 'f:cpu': {}, 'f:ephemeral-storage': {}, 'f:memory': {}, 'f:pods': {} },
              'f:conditions': Object.fromEntries(['DiskPressure', 'MemoryPressure', 'PIDPressure', 'Ready'].map((t) => [`k:{"type":"${t}"}`, { 'f:lastHeartbeatTime': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {} }])),
              'f:images': {},
              'f:nodeInfo': { 'f:bootID': {}, 'f:containerRuntimeVersion': {}, 'f:kernelVersion': {}, 'f:kubeletVersion': {} },
            },
          },
          manager: 'kubelet',
          operation: 'Update',
          subresource: 'status',
          time: '2026-03-15T06:00:00Z',
        },
      ],
      name: 'node-__N__',
      resourceVersion: '__RV__',
      uid: '5d502ee1-eddc-43b2-9c3a-__UID__',
    },
    spec: { podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24'], providerID: 'aws:///eu-west-1a/i-0__N__' },
    status: {
      addresses: [
        { address: '10.0.1.__N__', type: 'InternalIP' },
        { address: 'ip-10-0-1-__N__.eu-west-1.compute.internal', type: 'Hostname' },
      ],
      allocatable: { cpu: '7910m', 'ephemeral-storage': '95551679124', memory: '31482280Ki', pods: '110' },
      capacity: { cpu: '8', 'ephemeral-storage': '104845292Ki', memory: '32408488Ki', pods: '110' },
      conditions: ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map((type) => ({
        lastHeartbeatTime: '2026-03-15T06:00:00Z',
        lastTransitionTime: '2026-01-10T08:00:30Z',
        message: type === 'Ready' ? 'kubelet is posting ready status' : `kubelet has no ${type.toLowerCase()}`,
        reason: type === 'Ready' ? 'KubeletReady' : `KubeletHasNo${type}`,
        status: type === 'Ready' ? 'True' : 'False',
        type,
      })),
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      images: Array.from({ length: 40 }, (_, i) => ({
        names: [`registry.example.com/team-${i}/service@sha256:${'ab12'.repeat(16)}`, `registry.example.com/team-${i}/service:v1.${i}.0`],
        sizeBytes: 123456789 + i,
      })),
      nodeInfo: {
        architecture: 'amd64',
        bootID: '6a1f8a2e-0c1d-4d0e-9e58-__UID__',
        containerRuntimeVersion: 'containerd://1.7.22',
        kernelVersion: '6.1.112-124.190.amzn2023.x86_64',
        kubeProxyVersion: '',
        kubeletVersion: 'v1.34.4',
        machineID: 'ec2a0c1d4d0e9e58__UID__',
        operatingSystem: 'linux',
        osImage: 'Amazon Linux 2023.6.20241010',
        systemUUID: 'ec2a0c1d-4d0e-9e58-__UID__',
      },
    },
  };
}

function pod(): Record<string, unknown> {
  const container = (name: string) => ({
    env: [
      { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
      { name: 'LOG_LEVEL', value: 'info' },
      { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { key: 'url', name: 'db' } } },
    ],
    image: `registry.example.com/team/${name}:v1.2.3`,
    imagePullPolicy: 'IfNotPresent',
    livenessProbe: { failureThreshold: 3, httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' }, periodSeconds: 10, successThreshold: 1, timeoutSeconds: 1 },
    name,
    ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
    readinessProbe: { failureThreshold: 3, httpGet: { path: '/ready', port: 8080, scheme: 'HTTP' }, periodSeconds: 5, successThreshold: 1, timeoutSeconds: 1 },
    resources: { limits: { memory: '1Gi' }, requests: { cpu: '250m', memory: '512Mi' } },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    volumeMounts: [{ mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: 'kube-api-access-__N__', readOnly: true }],
  });
  const containerFields = (name: string) => ({
    [`k:{"name":"${name}"}`]: {
      '.': {},
      'f:env': { '.': {}, 'k:{"name":"POD_NAME"}': { '.': {}, 'f:name': {}, 'f:valueFrom': { '.': {}, 'f:fieldRef': {} } }, 'k:{"name":"LOG_LEVEL"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
      'f:image': {},
      'f:imagePullPolicy': {},
      'f:livenessProbe': { '.': {}, 'f:failureThreshold': {}, 'f:httpGet': { '.': {}, 'f:path': {}, 'f:port': {}, 'f:scheme': {} } },
      'f:name': {},
      'f:ports': { '.': {}, 'k:{"containerPort":8080,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {}, 'f:protocol': {} } },
      'f:resources': { '.': {}, 'f:limits': { '.': {}, 'f:memory': {} }, 'f:requests': { '.': {}, 'f:cpu': {}, 'f:memory': {} } },
      'f:terminationMessagePath': {},
      'f:terminationMessagePolicy': {},
    },
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-03-01T10:00:00Z', 'prometheus.io/scrape': 'true' },
      creationTimestamp: '2026-03-15T06:00:00Z',
      generateName: 'app-__J__-7d4b9c8f6-',
      labels: { app: 'app-__J__', 'pod-template-hash': '7d4b9c8f6', team: 'team-__J__' },
      managedFields: [
        {
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': { 'f:generateName': {}, 'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {} }, 'f:ownerReferences': { '.': {}, 'k:{"uid":"ff11fe5e"}': {} } },
            'f:spec': { 'f:containers': { ...containerFields('app'), ...containerFields('sidecar') }, 'f:dnsPolicy': {}, 'f:restartPolicy': {}, 'f:schedulerName': {} },
          },
          manager: 'kube-controller-manager',
          operation: 'Update',
          time: '2026-03-15T06:00:00Z',
        },
        {
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:status': {
              'f:conditions': Object.fromEntries(['ContainersReady', 'Initialized', 'PodReadyToStartContainers', 'Ready'].map((t) => [`k:{"type":"${t}"}`, { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} }])),
              'f:containerStatuses': {},
              'f:hostIP': {},
              'f:phase': {},
              'f:podIP': {},
              'f:startTime': {},
            },
          },
          manager: 'kubelet',
          operation: 'Update',
          subresource: 'status',
          time: '2026-03-15T06:00:10Z',
        },
      ],
      name: 'app-__J__-7d4b9c8f6-__N__',
      namespace: 'team-__J__',
      ownerReferences: [{ apiVersion: 'apps/v1', blockOwnerDeletion: true, controller: true, kind: 'ReplicaSet', name: 'app-__J__-7d4b9c8f6', uid: 'ff11fe5e-1e9e-413f-94b9-dc1910153641' }],
      resourceVersion: '__RV__',
      uid: '0a8f3c2e-7b1d-4c55-9d0e-__UID__',
    },
    spec: {
      containers: [container('app'), container('sidecar')],
      dnsPolicy: 'ClusterFirst',
      enableServiceLinks: true,
      nodeName: 'node-__NODE__',
      preemptionPolicy: 'PreemptLowerPriority',
      priority: 0,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {},
      serviceAccount: 'default',
      serviceAccountName: 'default',
      terminationGracePeriodSeconds: 30,
      tolerations: [
        { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
        { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
      ],
      volumes: [
        {
          name: 'kube-api-access-__N__',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
              { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
            ],
          },
        },
      ],
    },
    status: {
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({ lastProbeTime: null, lastTransitionTime: '2026-03-15T06:00:05Z', status: 'True', type })),
      containerStatuses: ['app', 'sidecar'].map((name) => ({
        containerID: `containerd://${'9f'.repeat(32)}`,
        image: `registry.example.com/team/${name}:v1.2.3`,
        imageID: `registry.example.com/team/${name}@sha256:${'cd34'.repeat(16)}`,
        lastState: {},
        name,
        ready: true,
        restartCount: 0,
        started: true,
        state: { running: { startedAt: '2026-03-15T06:00:08Z' } },
      })),
      hostIP: '10.0.1.17',
      hostIPs: [{ ip: '10.0.1.17' }],
      phase: 'Running',
      podIP: '10.0.17.__J__',
      podIPs: [{ ip: '10.0.17.__J__' }],
      qosClass: 'Burstable',
      startTime: '2026-03-15T06:00:05Z',
    },
  };
}

/** The i-th object of the dump; a pod runs on the node written last before it. */
function fill(template: string, i: number): string {
  const n = String(i).padStart(6, '0');
  return template
    .replaceAll('__N__', n)
    .replaceAll('__J__', String(i % 50))
    .replaceAll('__NODE__', String(i - (i % 20)).padStart(6, '0'))
    .replaceAll('__ZONE__', zones[i % 3] ?? 'z')
    .replaceAll('__RV__', String(1000 + i))
    .replaceAll('__UID__', n.padStart(12, '0'));
}

/** Writes strings to a file in chunks of a few megabytes. */
class ChunkedWriter {
  private readonly fd: number;
  private buffer: string[] = [];
  private size = 0;
  written = 0;

  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }

  write(text: string): void {
    this.buffer.push(text);
    this.size += text.length;
    if (this.size > 4 << 20) this.flush();
  }

  private flush(): void {
    const data = Buffer.from(this.buffer.join(''));
    writeSync(this.fd, data);
    this.written += data.length;
    this.buffer = [];
    this.size = 0;
  }

  close(): number {
    this.flush();
    closeSync(this.fd);
    return this.written;
  }
}

/** One object per 20 is a node, the rest pods; stops once the file reaches `bytes`. */
export function writeYamlDump(file: string, bytes: number): { bytes: number; objects: number } {
  // As kubectl writes a List: `- ` at column 0, the entry's lines indented by two.
  // kubectl quotes what YAML 1.1 would read as something else: timestamps, numeric strings.
  const asEntry = (object: Record<string, unknown>) =>
    stringify([object], { indentSeq: false, lineWidth: 0 })
      .replace(/: (\d{4}-\d\d-\d\dT\S+)$/gm, ': "$1"')
      .replace('resourceVersion: __RV__', 'resourceVersion: "__RV__"');
  const templates = { node: asEntry(node()), pod: asEntry(pod()) };
  const out = new ChunkedWriter(file);
  out.write('apiVersion: v1\nitems:\n');
  let objects = 0;
  let approx = 0;
  while (approx < bytes) {
    const text = fill(objects % 20 === 0 ? templates.node : templates.pod, objects);
    out.write(text);
    approx += text.length;
    objects++;
  }
  out.write('kind: List\nmetadata:\n  resourceVersion: ""\n');
  return { bytes: out.close(), objects };
}

export function writeJsonDump(file: string, bytes: number): { bytes: number; objects: number } {
  // As kubectl writes it: four spaces per level, the items two levels in.
  const asItem = (object: Record<string, unknown>) => JSON.stringify(object, null, 4).replaceAll('\n', '\n        ');
  const templates = { node: asItem(node()), pod: asItem(pod()) };
  const out = new ChunkedWriter(file);
  out.write('{\n    "apiVersion": "v1",\n    "items": [\n');
  let objects = 0;
  let approx = 0;
  while (approx < bytes) {
    const text = `${objects === 0 ? '' : ',\n'}        ${fill(objects % 20 === 0 ? templates.node : templates.pod, objects)}`;
    out.write(text);
    approx += text.length;
    objects++;
  }
  out.write('\n    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n');
  return { bytes: out.close(), objects };
}
