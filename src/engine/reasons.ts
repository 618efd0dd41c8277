// Every structured reason a rule can give, by `kind`: the union of the details of the rules
// (rules/index.ts), each declared with its rule (rules/<Plugin>.ts). English is made from these
// in src/messages/, never in the rules.
import type { RuleReason } from './model.js';
import type { SchedulerCatalog } from './scheduler-message/catalog.js';
import type { PluginName } from './names.js';
import type { ReasonDetail, Rule } from './rules/index.js';

export type { ReasonDetail, Rule };
export type ReasonKind = ReasonDetail['kind'];

/** A failure of any plugin. */
export type Reason = RuleReason<PluginName, ReasonDetail>;


/**
 * What the engine is given about the scheduler's plugins: the registry (src/messages/registry.ts) builds
 * it from rules/index.ts and the words, so that a diagnosis never loads English it does not print.
 */
export interface RuleSet {
  /** Every filter rule, in the scheduler's filter order. */
  readonly rules: readonly Rule[];
  /** The scheduler's wordings for their reasons, to read its messages with. */
  readonly catalog: SchedulerCatalog;
}
