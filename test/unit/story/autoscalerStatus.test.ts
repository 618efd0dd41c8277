// cluster-autoscaler's status ConfigMap, both formats, from kubernetes/autoscaler:
// - YAML (CA 1.30+, PR #6375): cluster-autoscaler/clusterstate/utils/status_test.yaml at
//   f1b063dcf4c0062c28b571966dc7a334214bb97b, verbatim below;
// - text (up to CA 1.29): clusterstate/api/utils.go GetReadableString (commit
//   1ff43d98ab49d3c2db78fea0f21c8f7b92c6f013 and later releases, which print "  Name:" per group)
//   after utils/status.go's "Cluster-autoscaler status at %s:\n" header (ConfigMapLastUpdateFormat
//   "2006-01-02 15:04:05.999999999 -0700 MST"); the condition messages are clusterstate.go's
//   (buildScaleUpStatusNodeGroup: "ready=%d cloudProviderTarget=%d").
import fc from 'fast-check';
import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseAutoscalerStatus } from '../../../src/engine/story/autoscalerStatus.js';

const statusTestYaml = `time: "2023-11-24 04:28:19.546750398 +0000 UTC"
message: "TEST_MSG"
autoscalerStatus: "Running"
clusterWide:
  health:
    status: "Healthy"
    nodeCounts:
      registered:
        total: 10
        ready: 4
        notStarted: 3
        beingDeleted: 1
        unready:
          total: 2
          resourceUnready: 1
      longUnregistered: 1
      unregistered: 2
    lastProbeTime: "2023-11-24T04:28:19.000048988Z"
    lastTransitionTime: "2023-11-23T14:52:02.000011Z"
  scaleUp:
    status: "NoActivity"
    lastProbeTime: "2023-11-24T04:28:19.000048988Z"
    lastTransitionTime: "2023-11-23T14:52:02.000011Z"
  scaleDown:
    status: "NoCandidates"
    candidates: 2
    lastProbeTime: "2023-11-24T04:28:19.000048988Z"
    lastTransitionTime: "2023-11-23T14:52:02.000011Z"
nodeGroups:
  -
    name: "sample-node-group"
    health:
      status: "Healthy"
      nodeCounts:
        registered:
          total: 10
          ready: 4
          notStarted: 3
          beingDeleted: 1
          unready:
            total: 2
            resourceUnready: 1
        longUnregistered: 1
        unregistered: 2
      cloudProviderTarget: 8
      minSize: 2
      maxSize: 12
      lastProbeTime: "2023-11-24T04:28:19.000048988Z"
      lastTransitionTime: "2023-11-23T14:52:02.000011Z"
    scaleUp:
      status: "Backoff"
      backoffInfo:
        errorCode: "QUOTA_EXCEEDED"
        errorMessage: "Instance 'sample-node-group-40ce0341-t28s' creation failed: Quota 'CPUS' exceeded. Limit: 57.0 in region us-central1."
      lastProbeTime: "2023-11-24T04:28:19.000048988Z"
      lastTransitionTime: "2023-11-23T14:52:02.000011Z"
    scaleDown:
      status: "NoCandidates"
      candidates: 2
      lastProbeTime: "2023-11-24T04:28:19.000048988Z"
      lastTransitionTime: "2023-11-23T14:52:02.000011Z"
`;

// GetReadableString: "%v%-12v %v" (prefix, type+":", status) then " (message)", and the two
// time lines "%v%13sLastProbeTime:      %v" / "%v%13sLastTransitionTime: %v" (Go time.String()).
const readableText = `Cluster-autoscaler status at 2024-01-05 14:42:56.660050258 +0000 UTC:
Cluster-wide:
  Health:      Unhealthy (ready=2 unready=1 notStarted=0 longNotStarted=0 registered=3 longUnregistered=0)
               LastProbeTime:      2024-01-05 14:42:56.011239739 +0000 UTC m=+1081500.500509416
               LastTransitionTime: 2024-01-05 14:30:08.392928745 +0000 UTC m=+72.882198411
  ScaleUp:     InProgress (ready=2 registered=3)
               LastProbeTime:      2024-01-05 14:42:56.011239739 +0000 UTC m=+1081500.500509416
               LastTransitionTime: 2024-01-05 14:40:00.000000001 +0000 UTC m=+1081300.1
  ScaleDown:   NoCandidates (candidates=0)
               LastProbeTime:      2024-01-05 14:42:56.011239739 +0000 UTC m=+1081500.500509416
               LastTransitionTime: 2023-12-24 02:19:08.392928745 +0000 UTC m=+72.882198411

NodeGroups:
  Name:        ng-a
  Health:      Healthy (ready=2 unready=0 notStarted=0 longNotStarted=0 registered=2 longUnregistered=0 cloudProviderTarget=3 (minSize=1, maxSize=10))
               LastProbeTime:      2024-01-05 14:42:56.011239739 +0000 UTC m=+1081500.500509416
               LastTransitionTime: 2023-12-24 02:19:08.392928745 +0000 UTC m=+72.882198411
  ScaleUp:     InProgress (ready=2 cloudProviderTarget=3)
               LastProbeTime:      2024-01-05 14:42:56.011239739 +0000 UTC m=+1081500.500509416
               LastTransitionTime: 2024-01-05 14:40:00.000000001 +0000 UTC m=+1081300.1
  ScaleDown:   NoCandidates (candidates=0)
               LastProbeTime:      2024-01-05 14:42:56.011239739 +0000 UTC m=+1081500.500509416
               LastTransitionTime: 2023-12-24 02:19:08.392928745 +0000 UTC m=+72.882198411

  Name:        ng-b
  Health:      Healthy (ready=0 unready=0 notStarted=0 longNotStarted=0 registered=0 longUnregistered=0 cloudProviderTarget=0 (minSize=0, maxSize=4))
               LastProbeTime:      2024-01-05 14:42:56.011239739 +0000 UTC m=+1081500.500509416
               LastTransitionTime: 2023-12-24 02:19:08.392928745 +0000 UTC m=+72.882198411
  ScaleUp:     Backoff (ready=0 cloudProviderTarget=0)
               LastProbeTime:      2024-01-05 14:42:56.011239739 +0000 UTC m=+1081500.500509416
               LastTransitionTime: 2024-01-05 14:35:00 +0000 UTC m=+1081000.1
  ScaleDown:   NoCandidates (candidates=0)
               LastProbeTime:      2024-01-05 14:42:56.011239739 +0000 UTC m=+1081500.500509416
               LastTransitionTime: 2023-12-24 02:19:08.392928745 +0000 UTC m=+72.882198411

`;

describe('parseAutoscalerStatus', () => {
  it("reads CA 1.30+'s YAML (status_test.yaml): cluster health, the group's backoff with its error, sizes", () => {
    expect(parseAutoscalerStatus(statusTestYaml)).toEqual({
      format: 'yaml',
      time: Date.parse('2023-11-24T04:28:19.546Z'),
      autoscalerStatus: 'Running',
      clusterHealth: 'Healthy',
      clusterHealthSince: Date.parse('2023-11-23T14:52:02.000011Z'),
      nodeGroups: [
        {
          name: 'sample-node-group',
          health: 'Healthy',
          scaleUp: 'Backoff',
          scaleUpSince: Date.parse('2023-11-23T14:52:02.000011Z'),
          backoff: { errorCode: 'QUOTA_EXCEEDED', errorMessage: "Instance 'sample-node-group-40ce0341-t28s' creation failed: Quota 'CPUS' exceeded. Limit: 57.0 in region us-central1." },
          minSize: 2,
          maxSize: 12,
          cloudProviderTarget: 8,
        },
      ],
    });
  });

  it("reads the text of CA up to 1.29: groups by Name, their scale-up and since when, sizes from the health message; no backoff error there", () => {
    expect(parseAutoscalerStatus(readableText)).toEqual({
      format: 'text',
      time: Date.parse('2024-01-05T14:42:56.660Z'),
      clusterHealth: 'Unhealthy',
      clusterHealthSince: Date.parse('2024-01-05T14:30:08.392Z'),
      nodeGroups: [
        { name: 'ng-a', health: 'Healthy', minSize: 1, maxSize: 10, cloudProviderTarget: 3, scaleUp: 'InProgress', scaleUpSince: Date.parse('2024-01-05T14:40:00.000Z') },
        { name: 'ng-b', health: 'Healthy', minSize: 0, maxSize: 4, cloudProviderTarget: 0, scaleUp: 'Backoff', scaleUpSince: Date.parse('2024-01-05T14:35:00Z') },
      ],
    });
  });

  it.each([
    { name: 'nothing', text: undefined },
    { name: 'blank', text: '  \n' },
    { name: 'YAML of something else', text: 'foo: bar\n' },
    { name: 'YAML that does not parse', text: 'a: [\n' },
    { name: 'a header without the sections', text: 'Cluster-autoscaler status at 2024-01-05 14:42:56 +0000 UTC:\nhello\n' },
  ])('is undefined for $name', ({ text }) => {
    expect(parseAutoscalerStatus(text)).toBeUndefined();
  });

  it('a status key that is null or not a string (a dump may hold anything there) reads as no status', () => {
    for (const value of [null, undefined, 42, {}, '  ']) expect(parseAutoscalerStatus(value as string | null | undefined)).toBeUndefined();
  });

  it('never throws, whatever the status holds', () => {
    const runs = Number(process.env['FC_RUNS'] ?? 200);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.anything().map((v) => dump({ clusterWide: v, nodeGroups: [v, { name: 'x', scaleUp: v, health: v }] }))), (text) => {
        parseAutoscalerStatus(text);
        parseAutoscalerStatus(`Cluster-autoscaler status at ${text}:\nCluster-wide:\n${text}\nNodeGroups:\n  Name:   ${text}\n`);
      }),
      { numRuns: runs },
    );
  });
});
