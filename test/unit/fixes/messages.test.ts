import { describe, expect, it } from 'vitest';
import type { Fix } from '../../../src/engine/fixes/index.js';
import { fixText } from '../../../src/messages/fixes.js';

const deployment = { kind: 'template' as const, owner: { kind: 'Deployment', namespace: 'shop', name: 'web' }, path: ['spec', 'template', 'spec'] };
const bare = { kind: 'pod' as const, pod: { namespace: 'shop', name: 'web-0' } };

function fix(changes: Fix['changes'], spec?: Fix['spec']): Fix {
  return { class: 'correction', cause: changes[0]!.cause, changes, ...(spec ? { spec } : {}), makesFit: ['n'], unproven: [], stillBlockedBy: {} };
}

describe('the words of a fix', () => {
  it('a toleration: the sentence names the template, the YAML sits under its path', () => {
    const text = fixText(fix([{ kind: 'tolerateTaint', cause: 'TaintToleration', taint: { key: 'gpu', effect: 'NoSchedule' }, toleration: { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' } }], deployment));
    expect(text).toEqual({
      change: 'Tolerate the taint gpu:NoSchedule (in the pod template of Deployment web).',
      yaml: ['spec:', '  template:', '    spec:', '      tolerations:', '      - key: gpu', '        operator: Exists', '        effect: NoSchedule'].join('\n'),
    });
  });

  it('a pod without controller: its own spec, and it must be recreated; no kubectl set resources on a pod', () => {
    const text = fixText(fix([{ kind: 'setRequest', cause: 'NodeResourcesFit', place: { in: 'containers', container: 'app' }, resource: 'memory', from: 2n * 1024n ** 3n, to: 1536n * 1024n ** 2n }], bare));
    expect(text.change).toBe("Lower container app's memory request from 2Gi to 1536Mi (by 512Mi) (the pod has no controller: delete it and create it again with the change).");
    expect(text.yaml).toBe(['spec:', '  containers:', '  - name: app', '    resources:', '      requests:', '        memory: 1536Mi'].join('\n'));
    expect(text.command).toBeUndefined();
  });

  it('requests of two resources of one container: one kubectl set resources', () => {
    const text = fixText(
      fix(
        [
          { kind: 'setRequest', cause: 'NodeResourcesFit', place: { in: 'containers', container: 'app' }, resource: 'cpu', from: 2000n, to: 1500n },
          { kind: 'setRequest', cause: 'NodeResourcesFit', place: { in: 'containers', container: 'app' }, resource: 'memory', from: 2n * 1024n ** 3n, to: 1024n ** 3n },
        ],
        deployment,
      ),
    );
    expect(text.command).toBe('kubectl set resources deployment/web -n shop -c app --requests=cpu=1500m,memory=1Gi');
  });

  it('labels: one command for every node, values quoted for the shell where needed', () => {
    const text = fixText(fix([{ kind: 'labelNodes', cause: 'NodeAffinity', nodes: ['a', 'b'], set: { team: "o'neil" }, remove: ['spot'] }]));
    expect(text.command).toBe("kubectl label node a b 'team=o'\\''neil' spot-");
    expect(text.change).toBe("Label 2 nodes (a and b) team=o'neil and remove label spot from 2 nodes (a and b).");
    expect(text.yaml).toBeUndefined();
  });

  it('preemption: one delete per namespace, and the caveat', () => {
    const text = fixText(
      fix([
        {
          kind: 'preempt',
          cause: 'NodeResourcesFit',
          node: 'n',
          victims: [
            { namespace: 'a', name: 'x', priority: 0 },
            { namespace: 'b', name: 'y', priority: 10 },
          ],
          budgetsKnown: false,
        },
      ]),
    );
    expect(text.command).toBe('kubectl delete pod -n a x\nkubectl delete pod -n b y');
    expect(text.change).toContain('Let preemption remove 2 lower-priority pods from node n: a/x (priority 0) and b/y (priority 10).');
    expect(text.change).toContain('PodDisruptionBudgets were not read');
  });

  it('preemption with the budgets read: names the budget a victim would violate, no caveat', () => {
    const text = fixText(
      fix([{ kind: 'preempt', cause: 'NodeResourcesFit', node: 'n', victims: [{ namespace: 'a', name: 'x', priority: 0, budgets: ['x-pdb'] }], budgetsKnown: true }]),
    );
    expect(text.change).toContain('a/x (priority 0, against PodDisruptionBudget x-pdb)');
    expect(text.change).not.toContain('were not read');
  });

  it('a taint key with a line break stays on one YAML line, escaped as JSON writes it', () => {
    const key = 'a\nb';
    const text = fixText(fix([{ kind: 'tolerateTaint', cause: 'TaintToleration', taint: { key, effect: 'NoSchedule' }, toleration: { key, operator: 'Exists', effect: 'NoSchedule' } }], deployment));
    expect(text.yaml).toContain('- key: "a\\nb"');
  });

  it('a node name with a line break stays on one command line, as bash reads it', () => {
    const text = fixText(fix([{ kind: 'uncordon', cause: 'NodeUnschedulable', node: "a\nb'c" }]));
    expect(text.command).toBe("kubectl uncordon $'a\\x0ab\\'c'");
  });

  it('a value with an invisible character is shown with it named', () => {
    const text = fixText(fix([{ kind: 'setNodeSelector', cause: 'NodeAffinity', from: { key: 'tier', value: 'nvme\u00a0' }, to: { key: 'tier', value: 'nvme' } }], deployment));
    expect(text.change).toBe('Change nodeSelector "tier=nvme⟨U+00A0⟩" to tier=nvme, as the nodes spell it (in the pod template of Deployment web).');
  });
});
