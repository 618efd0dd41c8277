// The first stage of a single pod's read: the target. The pod, or the owner named `kind/name`
// with what is below it, from which the engine's own resolver picks the pod (the first request:
// it warms up credentials). A pod not found may never have been admitted: a controller's
// FailedCreate events name it, and names nearby help a typo.
import type { V1LabelSelector, V1Pod } from '@kubernetes/client-node';
import { eventsAbout, formatLabelSelector, parseQuery, resolve } from '../../../engine/readPlan.js';
import type { KeptCollection, LiveReader, Meta } from '../reader.js';
import { escapeField, kindWord, namesOnly, ownerResource, resources } from '../resources.js';

export interface LiveQuery {
  namespace: string;
  /** `name` or `kind/name`, as typed. */
  name: string;
}


type Owner = Meta & { spec?: { selector?: V1LabelSelector } };

function ownedBy(object: Meta, owner: Meta): boolean {
  const uid = owner.metadata?.uid;
  return (object.metadata?.ownerReferences ?? []).some((ref) => (uid ? ref.uid === uid : ref.name === owner.metadata?.name));
}

function isPending(pod: V1Pod): boolean {
  return (pod.status?.phase ?? 'Pending') === 'Pending';
}

/** The pod the query names, read and kept; undefined when there is none (what explains it is read). */
export async function readTarget(reader: LiveReader, query: LiveQuery): Promise<V1Pod | undefined> {
  const target = parseQuery(query.name);
  const ns = query.namespace;
  if (target.kind !== 'Pod') return fromOwner(reader, target.kind, target.name, ns, query.name);
  const what = `reading pod ${ns}/${target.name}`;
  reader.progress(what);
  const pod = await reader.getTarget<V1Pod>(resources.pods, ns, target.name, what);
  if (!pod) {
    await podNotFound(reader, ns, target.name);
    return undefined;
  }
  reader.add('pods', [pod]);
  return pod;
}

async function podNotFound(reader: LiveReader, ns: string, name: string): Promise<void> {
  reader.progress(`pod ${ns}/${name} not found; reading FailedCreate events and pod names`);
  await Promise.all([reader.events(ns, 'reason=FailedCreate', `reading FailedCreate events in namespace ${ns}`), podNames(reader, ns)]);
  await admissionInputs(reader, ns, name);
}

/**
 * Never admitted: the owner whose FailedCreate events say so (its pod template is what each
 * pod asks) and the namespace's quotas and LimitRanges, for the refusal's arithmetic.
 */
async function admissionInputs(reader: LiveReader, ns: string, queryText: string): Promise<void> {
  const found = resolve(reader.snapshot(), { namespace: ns, name: queryText });
  if (found.found !== 'admissionRejected') return;
  const { kind, name } = found.owner;
  const r = ownerResource(kind);
  reader.progress(`reading what the admission refusal counts: ${kindWord(kind)} ${ns}/${name}, quotas and limit ranges`);
  await Promise.all([
    r && !reader.find(r.collection as KeptCollection, ns, name) ? reader.get(r, ns, name, `reading ${kindWord(kind)} ${ns}/${name}`) : undefined,
    reader.list(resources.limitRanges, ns, `listing limit ranges in namespace ${ns}`),
    reader.list(resources.resourceQuotas, ns, `listing resource quotas in namespace ${ns}`),
  ]);
}

/** Names only (metadata-only lists), for the engine's suggestions. */
async function podNames(reader: LiveReader, ns: string): Promise<void> {
  const nameOnly = (item: V1Pod): V1Pod => ({
    metadata: { name: item.metadata?.name ?? '', namespace: item.metadata?.namespace ?? ns, ...(item.metadata?.uid ? { uid: item.metadata.uid } : {}) },
  });
  await reader.list<V1Pod>(resources.pods, ns, `listing pod names in namespace ${ns}`, { accept: namesOnly, cut: { reduce: nameOnly } });
}

async function podsBySelector(reader: LiveReader, ns: string, selector: V1LabelSelector | undefined, what: string): Promise<void> {
  const labelSelector = formatLabelSelector(selector);
  if (labelSelector !== null) await reader.list<V1Pod>(resources.pods, ns, what, { query: { labelSelector } });
}

async function fromOwner(reader: LiveReader, kind: string, name: string, ns: string, queryText: string): Promise<V1Pod | undefined> {
  const r = ownerResource(kind);
  if (!r) return undefined;
  const what = `reading ${kindWord(kind)} ${ns}/${name}`;
  reader.progress(what);
  const owner = await reader.getTarget<Owner>(r, ns, name, what);
  const ownerEvents = reader.eventsOf(ns, kind, name);
  if (!owner) {
    await ownerEvents;
    // Gone, or never there: events of the same kind give the engine names to suggest.
    if (eventsAbout(reader.snapshot(), { kind, namespace: ns, name }).length === 0) {
      await reader.events(ns, `involvedObject.kind=${escapeField(kind)}`, `reading events of ${kindWord(kind)}s in namespace ${ns}`, 500);
    }
    return undefined;
  }
  reader.add(r.collection as KeptCollection, [owner]);
  const selector = owner.spec?.selector;
  const podsWhat = `listing the pods of ${kindWord(kind)} ${ns}/${name}`;
  const below: Promise<unknown>[] = [ownerEvents];
  if (kind === 'Deployment') {
    const labelSelector = formatLabelSelector(selector);
    if (labelSelector !== null) {
      below.push(reader.list<Meta>(resources.replicaSets, ns, `listing the replica sets of deployment ${ns}/${name}`, { query: { labelSelector }, keep: (rs) => ownedBy(rs, owner) }));
    }
    below.push(podsBySelector(reader, ns, selector, podsWhat));
  } else if (kind === 'CronJob') {
    below.push(
      reader.list<Owner>(resources.jobs, ns, `listing the jobs of cronjob ${ns}/${name}`, { keep: (job) => ownedBy(job, owner) }).then((jobs) =>
        Promise.all((jobs ?? []).map((job) => podsBySelector(reader, ns, job.spec?.selector, `listing the pods of job ${ns}/${job.metadata?.name ?? ''}`))),
      ),
    );
  } else {
    below.push(podsBySelector(reader, ns, selector, podsWhat));
  }
  await Promise.all(below);
  const first = resolve(reader.snapshot(), { namespace: ns, name: queryText });
  if (first.found === 'pod' && isPending(first.pod)) return first.pod;
  // No pending pod: the FailedCreate events of the owners below may explain why.
  const children = [
    ...reader.objects.replicaSets.filter((rs) => ownedBy(rs, owner)).map((rs) => ({ kind: 'ReplicaSet', name: rs.metadata?.name ?? '' })),
    ...reader.objects.jobs.filter((job) => ownedBy(job, owner)).map((job) => ({ kind: 'Job', name: job.metadata?.name ?? '' })),
  ];
  await Promise.all(children.map((child) => reader.eventsOf(ns, child.kind, child.name)));
  const second = resolve(reader.snapshot(), { namespace: ns, name: queryText });
  if (second.found === 'pod') return second.pod;
  await admissionInputs(reader, ns, queryText);
  return undefined;
}
