// A triage for a person on call: one line per cause, largest first, with the pod count, whose
// pods they are (deploy/web x40) and the group's headline; then the group's first fix.
import { stageBriefly } from '../../messages/stages.js';
import { palette } from '../color.js';
import { escapeTerminal } from '../escape.js';
import type { Writer } from '../writer.js';
import type { TriageGroupV1, TriageOwnerV1, TriageV1 } from './contract.js';

const shortKinds: Record<string, string> = { Deployment: 'deploy', ReplicaSet: 'rs', StatefulSet: 'sts', DaemonSet: 'ds', Job: 'job', CronJob: 'cronjob' };
const shownOwners = 3;
const shownPods = 5;

function ownerText(o: TriageOwnerV1): string {
  const name = o.owner ? `${shortKinds[o.owner.kind] ?? o.owner.kind.toLowerCase()}/${o.owner.name}` : o.pods === 1 ? 'a pod without controller' : 'pods without controller';
  return o.owner || o.pods > 1 ? `${name} x${o.pods}` : name;
}

function ownersText(g: TriageGroupV1): string {
  const shown = g.owners.slice(0, shownOwners).map(ownerText).join(', ');
  return g.owners.length > shownOwners ? `${shown}, ${g.owners.length - shownOwners} more owners` : shown;
}

function podsText(g: TriageGroupV1, allNamespaces: boolean): string {
  const name = (p: TriageGroupV1['pods'][number]) => (allNamespaces ? `${p.pod.namespace}/${p.pod.name}` : p.pod.name);
  const shown = g.pods.slice(0, shownPods).map(name).join(', ');
  return g.pods.length > shownPods ? `${shown} and ${g.pods.length - shownPods} more` : shown;
}

function causeWords(g: TriageGroupV1): string {
  if (g.cause.plugin) return `, ${g.cause.plugin}`;
  if (g.cause.reason === 'waitingForScaleUp') return ` (${g.cause.key})`;
  if (g.cause.reason === 'heldForNominated') return `, room held for nominated ${g.cause.key.split(',').join(', ')}`;
  return g.cause.reason === 'scaleUpBackoff' ? `, ${g.cause.key.split(':')[0] ?? ''}'s scale-up backed off` : '';
}

export function reportTriageHuman(t: TriageV1, out: Writer): void {
  const colors = palette(out.color);
  const where = t.scope.namespace === null ? 'all namespaces' : `namespace ${t.scope.namespace}`;
  const selector = t.scope.selector ? ` matching ${t.scope.selector}` : '';
  const lines: string[] = [];
  if (t.counts.pending === 0) {
    lines.push(escapeTerminal(`No pending pods in ${where}${selector}.`));
    out.write(`${lines.join('\n')}\n`);
    return;
  }
  const causes = t.counts.groups === 1 ? '1 cause' : `${t.counts.groups} causes`;
  lines.push(colors.bold(escapeTerminal(`${t.counts.pending} pending pod${t.counts.pending === 1 ? '' : 's'} in ${where}${selector}, ${causes}`)));
  const width = String(t.groups[0]?.count ?? 0).length;
  for (const g of t.groups) {
    lines.push('');
    lines.push(escapeTerminal(`${String(g.count).padStart(width)} pod${g.count === 1 ? ' ' : 's'}  ${ownersText(g)}  [${stageBriefly(g.cause.stage)}${causeWords(g)}]`));
    const indent = ' '.repeat(width + 7);
    lines.push(escapeTerminal(`${indent}${g.headline}`));
    // A group's one fix line only for what undoes a slip or is under way: a capacity or policy
    // change is a decision per workload, read in the pod's own diagnosis.
    const fix = g.fixes.find((f) => f.class === 'correction' || f.class === 'wait');
    if (fix) lines.push(`${indent}${colors.bold('fix:')} ${escapeTerminal(`${fix.change}${fix.command ? `  (${fix.command.split('\n')[0] ?? ''})` : ''}`)}`);
    lines.push(escapeTerminal(`${indent}pods: ${podsText(g, t.scope.namespace === null)}`));
  }
  lines.push('');
  lines.push(`For one pod's node-by-node detail: kubectl why-pending POD -n NAMESPACE`);
  out.write(`${lines.join('\n')}\n`);
}
