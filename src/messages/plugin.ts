// A plugin's descriptor: its rule (src/engine/rules/<Plugin>.ts, logic and data only) with all
// that is said about it in words: what it checks, one message and one short form per kind of
// detail, and the scheduler's own wordings for its reasons, release by release. Each plugin's
// is the default export of src/messages/rules/<Plugin>.ts; the registry (src/messages/registry.ts) lists
// them. The types make a descriptor complete: a kind without a message or a short form, or a
// plugin without a wording, does not compile (and test/unit/plugins.test.ts checks it again).
import type { Detail, FilterRule } from '../engine/model.js';
import type { PluginWording } from '../engine/scheduler-message/catalog.js';
import type { ReasonDetail } from '../engine/reasons.js';
import type { ResourceHolder } from '../engine/rules/NodeResourcesFit.js';
import type { NearMissBlock } from './nearMissBlocks.js';

/** One function per kind of detail `D` holds, given that kind's detail. */
export type KindTable<D extends Detail> = { readonly [K in D['kind']]: (detail: Extract<D, { kind: K }>) => string };

/** A clause of the headline: the full form, and a brief one for when room runs out. */
export interface Clause {
  text: string;
  brief?: string;
  /** Shorter still, for a long pod or node name. */
  briefest?: string;
}

/**
 * How the headline tells the nodes failing with one kind of detail: `key` says which details
 * are the same cause (the taint, the selector entry, the resource: never a node's own name or
 * amounts), and `says` is the predicate of `count` nodes sharing it, given each one's detail
 * ("carry taint dedicated=gpu:NoSchedule, which ..."), in the verb form for that count.
 */
export interface HeadlineGroup<D> {
  key: (detail: D) => string;
  says: (count: number, details: readonly D[]) => Clause;
}

/**
 * What a kind of detail shows under "Near misses": its blocks (nodes with the same block are
 * listed together), and whether they tell all the reason says, so that "Reasons" need not
 * repeat it.
 */
export interface NearMisses<D> {
  blocks: (detail: D) => NearMissBlock[];
  toldWhole?: (detail: D) => boolean;
}

/** The rows each section of the human report beside "Reasons" draws, by section. */
export interface SectionRows {
  /** The request arithmetic's table: a node short of a resource, in numbers. */
  shortfall: { resource: string; requested: bigint; allocatable: bigint; used: bigint; free: bigint; short: bigint; exceedsAllocatable: boolean };
  /** The pods that hold what a node is short of. */
  holders: { resource: string; holders: readonly ResourceHolder[]; holderCount: number };
}

/** How the human report tells a kind of detail, beside its message and its near misses. */
export interface Presentation<D> {
  /** The row the detail adds to each section it feeds (undefined: none for this detail). */
  readonly rows?: { readonly [S in keyof SectionRows]?: (detail: D) => SectionRows[S] | undefined };
  /** A section's table tells it whole: "Reasons" leaves it out. */
  readonly toldInSection?: boolean;
  /** The node table's row tells it whole when it is the node's first reason. */
  readonly toldByRow?: (detail: D) => boolean;
  /**
   * Another reason of the same node says it for a person: the scheduler counts it twice (-o
   * json keeps both), the human report once.
   */
  readonly toldBy?: (detail: D, others: readonly ReasonDetail[]) => boolean;
}

/** Headline groups by kind; a kind without one is told by its message, one group per text. */
export type HeadlineTable<D extends Detail> = { readonly [K in D['kind']]?: HeadlineGroup<Extract<D, { kind: K }>> };

export interface PluginText<D extends Detail> {
  /** What the plugin checks, to explain the scheduler's counts when the nodes could not be read. */
  readonly purpose: string;
  /** Every wording the scheduler has printed for this plugin's reasons, with the releases. */
  readonly wordings: readonly [PluginWording, ...PluginWording[]];
  /** One line of English per kind of detail. */
  readonly messages: KindTable<D>;
  /** A few words per kind, for a cell of the node table. */
  readonly short: KindTable<D>;
  /** How the headline groups and tells nodes failing with each kind (messages/summary.ts). */
  readonly headline?: HeadlineTable<D>;
  /** The kinds whose details show near misses character by character, and how. */
  readonly nearMisses?: { readonly [K in D['kind']]?: NearMisses<Extract<D, { kind: K }>> };
  /**
   * The scheduler says one thing of every failure of this plugin ("cannot allocate all
   * claims"): what hides behind it on a node, in a few words, for the agreement line's count of
   * nodes by cause.
   */
  readonly oneWording?: { readonly says: string; readonly cause: (detail: D) => string };
  /** How the human report tells each kind beside its message: sections it feeds, what tells it already. */
  readonly presentation?: { readonly [K in D['kind']]?: Presentation<Extract<D, { kind: K }>> };
  /**
   * The cause of a PreFilter failure in a few words, for the headline when the whole message
   * does not fit ("PVC db-data is unbound: provisioner x has not acted"), by kind.
   */
  readonly preFilterCause?: { readonly [K in D['kind']]?: (detail: Extract<D, { kind: K }>) => string };
}

export interface Plugin<P extends string, D extends Detail> extends PluginText<D> {
  /** The scheduler's name for the plugin (the rule's). */
  readonly name: P;
  readonly rule: FilterRule<P, D>;
}

/** A rule and its words, typed against the details the rule returns. */
export function plugin<P extends string, D extends Detail>(rule: FilterRule<P, D>, text: PluginText<D>): Plugin<P, D> {
  return { name: rule.meta.name, rule, ...text };
}

/** The verb for `count` subjects: `verb(1, 'carries', 'carry')`. */
export function verb(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}
