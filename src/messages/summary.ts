// The first line a user reads, at most `headlineLimit` characters: where the pod is stuck and
// the cause an engineer would act on. Nodes failing for the same cause are one clause, grouped
// by what distinguishes the cause (the taint, the selector entry, the resource), never listed
// node by node. When the pod selects some nodes (nodeSelector, node affinity, nodeName), those
// are the nodes it was meant for: their causes come first, the rest get one clause.
import type { Findings } from '../engine/diagnosis.js';
import type { NodeVerdict } from '../engine/judge.js';
import type { Detail } from '../engine/model.js';
import type { Reason } from '../engine/reasons.js';
import { headlineOf, preFilterCauseOf } from './registry.js';
import { plural } from './format.js';
import { headlineLimit } from './limits.js';
import { captureHint, notCheckedClause } from './gaps.js';
import { verb, type HeadlineGroup } from './plugin.js';
import { describeReason } from './reasons.js';
import { stageSentence } from './stages.js';


/** The pod's own choice of nodes: a node failing these is not one it was meant for. */
const selection = new Set<string>(['NodeAffinity', 'NodeName']);

/** The pod's field that rules a node out, by kind of detail, for the clause about the rest. */
const selectionWords: Record<string, string> = {
  nodeSelectorMismatch: 'nodeSelector',
  requiredAffinityMismatch: 'node affinity',
  outsidePreFilterNodes: 'node affinity',
  nodeNameMismatch: 'spec.nodeName',
};

interface Group {
  plugin: string;
  tell: HeadlineGroup<Detail>;
  details: Detail[];
  nodes: string[];
}

// A kind whose descriptor gives no headline group is told by its message, one group per text.
function fallback(plugin: string): HeadlineGroup<Detail> {
  return {
    key: (d) => describeReason(d as never),
    says: (n, [d]) => {
      const brief = `${verb(n, 'fails', 'fail')} ${plugin}`;
      return { text: d ? `${brief}: ${describeReason(d as never)}` : brief, brief };
    },
  };
}

// A group's key once per detail: nodes of one class share their details.
const groupKeys = new WeakMap<Detail, { key: string; tell: HeadlineGroup<Detail> }>();

function groupKeyOf(reason: Reason): { key: string; tell: HeadlineGroup<Detail> } {
  let known = groupKeys.get(reason.detail);
  if (!known) {
    const tell = headlineOf.get(reason.detail.kind) ?? fallback(reason.plugin);
    known = { key: `${reason.plugin}|${reason.detail.kind}|${tell.key(reason.detail)}`, tell };
    groupKeys.set(reason.detail, known);
  }
  return known;
}

function groupBy(nodes: readonly NodeVerdict[], pick: (n: NodeVerdict) => Reason | undefined): Group[] {
  const groups = new Map<string, Group>();
  for (const node of nodes) {
    const reason = pick(node);
    if (!reason) continue;
    const { key, tell } = groupKeyOf(reason);
    const group = groups.get(key) ?? { plugin: reason.plugin, tell, details: [], nodes: [] };
    group.details.push(reason.detail);
    group.nodes.push(node.name);
    groups.set(key, group);
  }
  // Largest first; a stable sort keeps the scheduler's filter order among equals.
  return [...groups.values()].sort((a, b) => b.nodes.length - a.nodes.length);
}

/** A clause in the forms it can take, the fullest first. */
type Forms = string[];

function formsOf(group: Group, subjects: readonly string[]): Forms {
  const said = group.tell.says(group.nodes.length, group.details);
  const predicates = [said.text, ...(said.brief ? [said.brief] : []), ...(said.briefest ? [said.briefest] : [])];
  const forms: Forms = [];
  // What is said matters more than naming the nodes: a fuller predicate first, then names.
  for (const p of predicates) for (const subject of subjects) forms.push(`${subject} ${p}`);
  return forms;
}

const nodesMore = (n: number) => `${plural(n, 'more node')} ${n === 1 ? 'fails' : 'fail'} for other reasons`;

/**
 * The clauses that fit in the limit, most important first: each in the fullest form that
 * leaves room for the others in their shortest; if even the shortest do not fit, fewer
 * clauses, the nodes left out counted. A clause is never cut inside.
 */
function fitClauses(prefix: string, clauses: readonly Forms[], counts: readonly number[], lead = ': '): string {
  const say = (parts: readonly string[]) => (parts.length > 0 ? `${prefix}${lead}${parts.join('; ')}.` : `${prefix}.`);
  for (let k = clauses.length; k >= 1; k--) {
    const kept = clauses.slice(0, k);
    const left = counts.slice(k).reduce((a, b) => a + b, 0);
    const tail = left > 0 ? [nodesMore(left)] : [];
    const chosen = kept.map((forms) => forms.length - 1);
    const sentence = () => say([...kept.map((forms, i) => forms[chosen[i] ?? 0] ?? ''), ...tail]);
    if (sentence().length > headlineLimit) continue;
    kept.forEach((forms, i) => {
      const shortest = chosen[i] ?? 0;
      for (let f = 0; f < shortest; f++) {
        chosen[i] = f;
        if (sentence().length <= headlineLimit) return;
      }
      chosen[i] = shortest;
    });
    return sentence();
  }
  const all = counts.reduce((a, b) => a + b, 0);
  return all > 0 ? say([`${plural(all, 'node')} ${all === 1 ? 'fails' : 'fail'} for the reasons below`]) : say([]);
}

/** Whether the pod's own selection rules the node out: a node it was not meant for. */
export function outsideSelection(node: NodeVerdict): boolean {
  return node.reasons.some((r) => selection.has(r.plugin));
}

/** The failing nodes the pod's own selection rules out, and those it was meant for. */
function bySelection(failing: readonly NodeVerdict[]): { outside: NodeVerdict[]; meant: NodeVerdict[] } {
  const outside: NodeVerdict[] = [];
  const meant: NodeVerdict[] = [];
  for (const n of failing) (outsideSelection(n) ? outside : meant).push(n);
  return { outside, meant };
}

function failingSentence(d: Findings, prefix: string, lead?: string): string {
  const failing = d.nodes.filter((n) => n.verdict === 'fails');
  const { outside, meant } = bySelection(failing);
  const firstSelection = (n: NodeVerdict) => n.reasons.find((r) => selection.has(r.plugin));
  if (outside.length === 0 || meant.length === 0) {
    // Every node is one it was meant for, or none is (then its selection is the cause).
    const groups = outside.length === 0 ? groupBy(failing, (n) => n.reasons[0]) : groupBy(outside, firstSelection);
    return fitClauses(prefix, groups.map((g) => formsOf(g, [plural(g.nodes.length, 'node')])), groups.map((g) => g.nodes.length), lead);
  }
  const meantGroups = groupBy(meant, (n) => n.reasons[0]);
  const outsideGroups = groupBy(outside, firstSelection);
  const only = meantGroups.length === 1 && meant.length <= 3;
  const meantNodes = meant.length === 1 ? 'the node it selects' : `the ${meant.length} nodes it selects`;
  const clauses = meantGroups.map((g, i): Forms => {
    if (only) return formsOf(g, [`${meantNodes} (${g.nodes.join(', ')})`, meantNodes]);
    return formsOf(g, i === 0 ? [`of the ${meant.length} nodes it selects, ${g.nodes.length}`] : [plural(g.nodes.length, 'node')]);
  });
  // The rest, one clause: the nodes its own selection rules out, told as the largest group says it.
  const rest = outsideGroups[0];
  if (rest) {
    const said = rest.tell.says(outside.length, rest.details);
    const what = selectionWords[rest.details[0]?.kind ?? ''] ?? 'node selection';
    const others = outside.length === 1 ? 'the other node' : `the other ${outside.length}`;
    clauses.push([`${others} ${said.brief ?? said.text}`, `${others} ${outside.length === 1 ? 'is' : 'are'} outside its ${what}`]);
  }
  const counts = [...meantGroups.map((g) => g.nodes.length), outside.length];
  return fitClauses(prefix, clauses, counts, lead);
}

/**
 * The cause the headline leads with, as an identity: the plugin, the kind of detail and what
 * distinguishes it (the descriptor's headline key), for the largest group of the nodes the pod
 * was meant for (or, when it was meant for none, of its own selection's failures). A triage
 * groups pods by it (report/triage/group.ts).
 */
export function leadingCause(d: Findings): { plugin: string; reason: string; key: string } | undefined {
  // The pods of one class share their verdicts: a triage of 5,000 pods groups each class's once.
  const known = leadingCauses.get(d.nodes);
  if (known && known.preFilter === d.preFilter) return known.cause;
  const cause = leadingCauseOf(d);
  leadingCauses.set(d.nodes, { preFilter: d.preFilter, cause });
  return cause;
}

const leadingCauses = new WeakMap<Findings['nodes'], { preFilter: Findings['preFilter']; cause: ReturnType<typeof leadingCauseOf> }>();

function leadingCauseOf(d: Pick<Findings, 'nodes' | 'preFilter'>): { plugin: string; reason: string; key: string } | undefined {
  const pre = d.preFilter[0];
  const failing = d.nodes.filter((n) => n.verdict === 'fails');
  const { outside, meant } = bySelection(failing);
  const group = pre ? undefined : meant.length > 0 ? groupBy(meant, (n) => n.reasons[0])[0] : groupBy(outside, (n) => n.reasons.find((r) => selection.has(r.plugin)))[0];
  const detail = pre?.detail ?? group?.details[0];
  if (!detail) return undefined;
  const tell = headlineOf.get(detail.kind) ?? fallback(pre?.plugin ?? group?.plugin ?? '');
  return { plugin: pre?.plugin ?? group?.plugin ?? '', reason: detail.kind, key: tell.key(detail) };
}

/** The scheduler's verdict in its own words, up to its first sentence ("0/3 nodes are available: 3 Insufficient cpu"). */
function schedulerVerdict(message: string): string {
  const end = message.indexOf('. ');
  return end > 0 ? message.slice(0, end) : message.replace(/\.$/, '');
}

/** The headline where the scheduler and the replay tell different stories, or undefined. */
function disagreement(d: Findings): string | undefined {
  const s = d.scheduler;
  if (s.agrees !== false || !s.message) return undefined;
  const stage = stageSentence(d);
  const disputed = d.nodes.filter((n) => n.disputed).length;
  const ours = `why-pending finds ${d.counts.fitting} of ${plural(d.counts.nodes, 'node')} fit${disputed > 0 ? ` and ${disputed} in dispute (unknown)` : ''}`;
  const forms = [
    `${stage} The scheduler and why-pending disagree: the scheduler said "${schedulerVerdict(s.message)}"; ${ours} (see "The scheduler said").`,
    `${stage} The scheduler and why-pending disagree (see "The scheduler said"); ${ours}.`,
    `${stage} The scheduler and why-pending disagree (see below).`,
  ];
  return forms.find((f) => f.length <= headlineLimit) ?? forms[forms.length - 1];
}

export function summarySentence(d: Findings): string {
  const stage = stageSentence(d);
  if (d.nodes.length === 0) return stage;
  if (d.preFilter[0]) {
    const pre = d.preFilter[0];
    const full = `${stage} Before any node is looked at, ${pre.plugin} fails: ${describeReason(pre.detail)}.`;
    if (full.length <= headlineLimit) return full;
    // The cause in a few words (the PVC and its provisioner), rather than the plugin's name.
    const cause = preFilterCauseOf.get(pre.detail.kind)?.(pre.detail);
    const brief = cause !== undefined ? `${stage} Before any node is looked at: ${cause}.` : undefined;
    return brief !== undefined && brief.length <= headlineLimit ? brief : `${stage} Before any node is looked at, ${pre.plugin} fails (see below).`;
  }
  // Where the two disagree, that comes first, with the scheduler's own words: the counts below are ours.
  const disagreed = disagreement(d);
  if (disagreed) return disagreed;
  const head = `${stage} ${d.counts.fitting} of ${plural(d.counts.nodes, 'node')} fit`;
  if (d.counts.unproven === 0) return failingSentence(d, head);
  // Never a cause drawn from a gap: say what passes, what was not checked, and how to get it.
  const are = d.counts.unproven === 1 ? 'passes everything checked but is' : 'pass everything checked but are';
  const unproven = `${plural(d.counts.unproven, 'node')} ${are} not proven to fit`;
  const hint = captureHint(d.gaps);
  const leads = [
    ...(hint ? [`${unproven} (${notCheckedClause(d.notChecked)}; ${hint})`] : []),
    `${unproven} (${notCheckedClause(d.notChecked)})`,
    `${unproven} (see below)`,
  ];
  const failing = d.counts.nodes - d.counts.fitting - d.counts.unproven;
  // Leave room for a clause about the failing nodes, if any.
  const room = failing > 0 ? 70 : 0;
  const lead = leads.find((l) => `${head}. ${l}.`.length + room <= headlineLimit) ?? leads[leads.length - 1] ?? unproven;
  if (failing === 0) return `${head}. ${lead}.`;
  return failingSentence(d, `${head}. ${lead}`, '; of the others, ');
}
