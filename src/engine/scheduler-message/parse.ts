// Reads a FailedScheduling event message or PodScheduled condition message into counts per
// filter plugin. The shape (framework/types.go FitError.Error, v1.25+) is
//   0/N nodes are available: <PreFilter msg>. | <count reason, ...>. [<PostFilter msg>]
// where the reasons are "%v %v" (count, reason) sorted as strings and joined with ", ", and the
// PostFilter message is whatever RunPostFilterPlugins returned, added after a space with no
// period of its own: e.g. "no new claims to deallocate, preemption: 0/N nodes are available:
// ..." (v1.34-v1.36), "preemption: 0/N nodes are available: ..." (v1.37, whose DRA PostFilter
// says nothing for a pod without claims), or, since v1.37 (PR #140180), "preemption: found a
// potential placement for pod on node X, preempting N victims", which ends without a period.
// Before v1.25 a PreFilter rejection was counted on every node instead; v1.25 to v1.27 printed
// a second period after the preemption sentence (until PR #117588).
//
// Only events are ever cut: schedule_one.go truncateMessage keeps the first
// NoteLengthLimit - 4 bytes and adds " ..." (NoteLengthLimit is 1024, pkg/apis/core/validation/
// events.go), so a cut event is 1024 bytes ending in " ...". The PodScheduled condition keeps the
// whole text. A message is never taken for cut because it lacks a final period.
import type { PluginName } from '../names.js';
import { gatedMessage, noNodesMessage, pluginsGroup, postFilterWords, preemptionPlacement, preemptionWords, type SchedulerCatalog } from './catalog.js';

export interface ParsedReason {
  count: number;
  text: string;
  plugin?: PluginName;
  detail?: Record<string, string>;
  /** Printed beside a more specific reason of the same plugin for the same nodes (v1.20–v1.21). */
  companion?: true;
}

export interface ParsedPreFilterReason {
  text: string;
  plugin?: PluginName;
  detail?: Record<string, string>;
}

export interface ParsedPreemption {
  /** What follows "preemption: ", without the final period. */
  text: string;
  notHelpful?: number;
  noVictims?: number;
  /** v1.37+: preemption succeeded; the pod is nominated to this node and victims are evicted. */
  placement?: { node: string; victims: number };
}

export interface ParsedSchedulerMessage {
  kind: 'nodeCounts' | 'preFilter' | 'gated' | 'other';
  totalNodes?: number;
  reasons: ParsedReason[];
  preFilterReason?: ParsedPreFilterReason;
  preemption?: ParsedPreemption;
  /** Other PostFilter plugins' words before preemption's (DynamicResources'). */
  postFilter?: string[];
  /** `running <extension point> plugin "X": <error>`: the scheduler failed, it did not judge. */
  failedPlugin?: { extensionPoint: string; plugin: string; text: string };
  /** An event the scheduler cut at its 1 KiB limit (1024 bytes ending in " ..."). Never a condition. */
  truncated: boolean;
  /** The reason the cut went through, kept out of `reasons` because its words are incomplete. */
  cutOff?: string;
  /** Texts no wording in the catalog matches. */
  unknownReasons: string[];
}

/** What the catalog says about one reason text. */
interface Match {
  known: Pick<ParsedReason, 'plugin' | 'detail' | 'companion'>;
  stage: 'filter' | 'preFilter';
}

function matchWording(catalog: SchedulerCatalog, text: string): Match | undefined {
  for (const wording of catalog.wordings) {
    const m = wording.pattern.exec(text);
    if (!m) continue;
    const groups = Object.entries(m.groups ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined);
    const detail = { ...wording.impliedDetail, ...Object.fromEntries(groups) };
    const plugin = wording.plugin ?? pluginsGroup(catalog, detail);
    const known = {
      ...(plugin ? { plugin } : {}),
      ...(Object.keys(detail).length > 0 ? { detail } : {}),
      ...(wording.companion ? { companion: true as const } : {}),
    };
    return { known, stage: wording.stage };
  }
  return undefined;
}

const OPEN = '{([';
const CLOSE = '})]';

/**
 * Splits where `separator` gives a length, but never inside braces, parentheses or brackets:
 * taints print as "{key: value}", and "node(s)" and "[NodeAffinity]" are part of reasons.
 */
function splitTopLevel(text: string, separator: (rest: string) => number): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) depth = Math.max(0, depth - 1);
    else if (depth === 0) {
      const length = separator(text.slice(i));
      if (length > 0) {
        parts.push(text.slice(start, i));
        start = i + length;
        i = start - 1;
      }
    }
  }
  parts.push(text.slice(start));
  return parts;
}

// A sentence ends with one or more periods and a space ("..", v1.25 to v1.27).
const sentenceEnd = (rest: string): number => /^\.+ /.exec(rest)?.[0].length ?? 0;
// Reasons are joined with ", ", and each starts with its count; a ", " inside a reason (the
// v1.18–v1.24 taint wording has one) is not followed by a count.
const reasonEnd = (rest: string): number => (/^, \d+ /.test(rest) ? 2 : 0);

function isPostFilterStart(text: string): boolean {
  return text.startsWith('preemption: ') || postFilterWords.some((w) => text === w || text.startsWith(`${w}, `) || text.startsWith(`${w}.`));
}

function parsePreemption(text: string): ParsedPreemption {
  const preemption: ParsedPreemption = { text };
  const placed = preemptionPlacement.exec(text)?.groups;
  if (placed?.['node'] && placed['victims']) preemption.placement = { node: placed['node'], victims: Number(placed['victims']) };
  const m = /^0\/\d+ nodes are available:? ?([\s\S]*)$/.exec(text);
  for (const part of m ? splitTopLevel(m[1] ?? '', reasonEnd) : []) {
    const counted = /^(\d+) ([\s\S]*)$/.exec(part);
    if (counted?.[2] === preemptionWords.notHelpful) preemption.notHelpful = Number(counted[1]);
    if (counted?.[2] === preemptionWords.noVictims) preemption.noVictims = Number(counted[1]);
  }
  return preemption;
}

/** Reads the PostFilter words (other plugins', then preemption's). */
function parseTail(tail: string, parsed: ParsedSchedulerMessage): void {
  const text = tail.replace(/\.+$/, '');
  const at = text.indexOf('preemption: ');
  const words = (at < 0 ? text : text.slice(0, at)).split(', ').map((w) => w.trim()).filter(Boolean);
  if (words.length > 0) parsed.postFilter = words;
  if (at >= 0) parsed.preemption = parsePreemption(text.slice(at + 'preemption: '.length));
}

function parseNodeCounts(catalog: SchedulerCatalog, total: number, body: string, cut: boolean): ParsedSchedulerMessage {
  const parsed: ParsedSchedulerMessage = { kind: 'nodeCounts', totalNodes: total, reasons: [], truncated: cut, unknownReasons: [] };
  // Where the PostFilter words start: at a sentence boundary, with words no filter prints.
  let tailAt = -1;
  let offset = 0;
  for (const sentence of splitTopLevel(body, sentenceEnd)) {
    offset = body.indexOf(sentence, offset);
    if (offset > 0 && isPostFilterStart(sentence)) {
      tailAt = offset;
      break;
    }
    offset += sentence.length;
  }
  const head = tailAt < 0 ? body : body.slice(0, tailAt);
  if (tailAt >= 0) parseTail(body.slice(tailAt), parsed);

  const sentences = splitTopLevel(head.trim().replace(/\.+$/, ''), sentenceEnd).filter((s) => s.length > 0);
  const stages: string[] = [];
  sentences.forEach((sentence, i) => {
    // Only the last words of a cut event can be incomplete: those of its last sentence, unless
    // the cut fell in the PostFilter words, or right after a sentence's period.
    const cutHere = cut && tailAt < 0 && i === sentences.length - 1 && !/\.\s*$/.test(body);
    const parts = /^\d+ /.test(sentence) ? splitTopLevel(sentence, reasonEnd) : [sentence];
    parts.forEach((part, j) => {
      if (cutHere && j === parts.length - 1) {
        parsed.cutOff = part;
        return;
      }
      const counted = /^(\d+) ([\s\S]*)$/.exec(part);
      const text = counted ? (counted[2] ?? '') : part;
      const match = matchWording(catalog, text);
      if (counted) {
        parsed.reasons.push({ count: Number(counted[1]), text, ...match?.known });
        stages.push(match?.stage ?? 'filter');
      } else if (!parsed.preFilterReason && parsed.reasons.length === 0) {
        const { plugin, detail } = match?.known ?? {};
        parsed.preFilterReason = { text, ...(plugin ? { plugin } : {}), ...(detail ? { detail } : {}) };
      }
      // Words with no place in the shape above are unknown too, whatever they say.
      const placed = counted || parsed.preFilterReason?.text === text;
      if (!match || !placed) parsed.unknownReasons.push(text);
    });
  });

  // Before v1.25 a PreFilter rejection was counted once per node: "3 pod has unbound ...".
  const only = parsed.reasons.length === 1 ? parsed.reasons[0] : undefined;
  if (!parsed.preFilterReason && only && stages[0] === 'preFilter') {
    const { count: _count, companion: _companion, ...reason } = only;
    parsed.preFilterReason = reason;
  }
  if (parsed.preFilterReason) parsed.kind = 'preFilter';
  return parsed;
}

// runtime/framework.go: "running PreFilter plugin %q: %w", "running %q filter plugin: %w"
// (v1.18–v1.2x added "for pod %q"), "running PreBind plugin %q: %w" and the like; v1.16–v1.17
// said "error while running %q prefilter plugin for pod %q: %v".
const pluginErrors = [
  /^running (?<point>[A-Za-z ]+?) plugin "(?<plugin>[^"]+)": (?<text>[\s\S]*)$/,
  /^running "(?<plugin>[^"]+)" (?<point>filter) plugin(?: for pod "[^"]*")?: (?<text>[\s\S]*)$/,
  /^error while running "(?<plugin>[^"]+)" (?<point>prefilter) plugin for pod "[^"]*": (?<text>[\s\S]*)$/,
];

function parsePluginError(catalog: SchedulerCatalog, text: string, truncated: boolean): ParsedSchedulerMessage | undefined {
  for (const pattern of pluginErrors) {
    const g = pattern.exec(text)?.groups;
    if (!g?.['plugin'] || !g['point'] || g['text'] === undefined) continue;
    const failedPlugin = { extensionPoint: g['point'], plugin: g['plugin'], text: g['text'] };
    const parsed: ParsedSchedulerMessage = { kind: 'other', reasons: [], failedPlugin, truncated, unknownReasons: [] };
    if (/^pre ?filter$/i.test(failedPlugin.extensionPoint)) {
      const plugin = pluginsGroup(catalog, { plugins: failedPlugin.plugin });
      parsed.kind = 'preFilter';
      parsed.preFilterReason = { text: failedPlugin.text, ...(plugin ? { plugin } : {}) };
    }
    return parsed;
  }
  return undefined;
}

/** Where the message was read: only events are cut. */
export type MessageSource = 'event' | 'condition';

// schedule_one.go truncateMessage with NoteLengthLimit (pkg/apis/core/validation/events.go).
const eventNoteLimit = 1024;
const truncationSuffix = ' ...';

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Whether an event's message is the scheduler's cut: exactly 1024 bytes ending in " ...". The
 * cut is by bytes, so it can split a multi-byte character; the API server then writes each
 * stray byte (at most 3) as U+FFFD, 3 bytes each: up to 6 bytes more.
 */
export function isCutAtEventLimit(message: string): boolean {
  if (!message.endsWith(truncationSuffix)) return false;
  const bytes = utf8Length(message);
  return bytes >= eventNoteLimit && bytes <= eventNoteLimit + 6;
}

/** Reads `message` with the wordings of `catalog` (the registry's, src/messages/registry.ts). */
export function parseSchedulerMessage(catalog: SchedulerCatalog, message: string, from: MessageSource = 'condition'): ParsedSchedulerMessage {
  const cut = from === 'event' && isCutAtEventLimit(message);
  let text = message.trim();
  if (cut) text = text.slice(0, -truncationSuffix.length).trimEnd();

  const total = /^0\/(\d+) nodes are available(?::\s*|(?=\.)|$)/.exec(text);
  if (total) return parseNodeCounts(catalog, Number(total[1]), text.slice(total[0].length), cut);
  if (text.startsWith(gatedMessage)) return { kind: 'gated', reasons: [], truncated: cut, unknownReasons: [] };
  if (text === noNodesMessage) return { kind: 'other', totalNodes: 0, reasons: [], truncated: cut, unknownReasons: [] };
  return parsePluginError(catalog, text, cut) ?? { kind: 'other', reasons: [], truncated: cut, unknownReasons: text ? [text] : [] };
}
