// What each plugin's descriptor says of how the human report tells its reasons (its
// `presentation` table, messages/plugin.ts): the sections a detail adds a row to, and what
// already tells it. The sections and "Reasons" ask here, and name no kind of detail.
import type { Diagnosis } from '../../engine/diagnosis.js';
import type { ReasonDetail } from '../../engine/reasons.js';
import type { Presentation, SectionRows } from '../../messages/plugin.js';
import { pluginNamed } from '../../messages/registry.js';

type Node = Diagnosis['nodes'][number];
type Reason = Node['reasons'][number];

function presentationOf(reason: Reason): Presentation<Reason['detail']> | undefined {
  const table = pluginNamed(reason.plugin).presentation as Readonly<Record<string, Presentation<Reason['detail']> | undefined>> | undefined;
  return table?.[reason.detail.kind];
}

/** The rows the nodes' reasons add to `section`, node by node, in the diagnosis's order. */
export function sectionRows<S extends keyof SectionRows>(d: Diagnosis, section: S): { node: Node; row: SectionRows[S] }[] {
  return d.nodes.flatMap((node) =>
    node.reasons.flatMap((reason) => {
      const row = presentationOf(reason)?.rows?.[section]?.(reason.detail) as SectionRows[S] | undefined;
      return row ? [{ node, row }] : [];
    }),
  );
}

/** A section's table tells the reason whole: "Reasons" leaves it out. */
export function toldInSection(reason: Reason): boolean {
  return presentationOf(reason)?.toldInSection ?? false;
}

/** The node table's row tells the reason whole when it is the node's first. */
export function toldByRow(reason: Reason): boolean {
  return presentationOf(reason)?.toldByRow?.(reason.detail) ?? false;
}

/** Another of the node's reasons says it for a person (the scheduler counted it twice). */
export function toldByAnother(reason: Reason, details: readonly ReasonDetail[]): boolean {
  return presentationOf(reason)?.toldBy?.(reason.detail, details) ?? false;
}
