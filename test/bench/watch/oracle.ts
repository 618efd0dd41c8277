// What a fresh read says about the pod now: the same live read and diagnosis as a one-shot
// `kubectl why-pending <pod> -n <ns>`, in this process (as the admin, so that the audit log
// holds the watching tool's requests only). The watch must have printed this headline last.
import { summarySentence } from '../../../src/messages/summary.js';
import { diagnosePod } from '../../../src/index.js';
import { liveOptionsFrom, liveSource, loadConfig } from '../../../src/sources/live/index.js';

export interface Verdict {
  stage: string;
  headline: string;
}

export function oracle(kubeconfig: string, namespace: string, name: string): () => Promise<Verdict> {
  const source = liveSource(loadConfig(liveOptionsFrom({ namespace }), { ...process.env, KUBECONFIG: kubeconfig }));
  const query = { namespace, name };
  return async () => {
    const outcome = diagnosePod(await source.read(query, () => undefined), query);
    if (outcome.kind === 'notFound') throw new Error(`${namespace}/${name} not found`);
    return { stage: outcome.diagnosis.stage, headline: summarySentence(outcome.diagnosis) };
  };
}
