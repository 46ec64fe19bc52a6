/**
 * The private canonical interrupted-result view (SPEC §7): V4 checks relationships with the
 * frozen V3 checker by showing it each canonical fork closer as the interrupted closer it mirrors.
 * The view is never returned; callers keep the original event (issues about a mapped event are
 * reworded by `forked-wording.ts`).
 */
import {
  INTERRUPTED_NOT_STARTED_TEXT,
  INTERRUPTED_RESULT_PREFIX,
  INTERRUPTED_STARTED_TEXTS,
  TOOL_NOT_STARTED_ERROR,
  TOOL_OUTCOME_UNKNOWN_ERROR,
  interruptedStartedText,
} from '../v3/interrupted-results.js';
import type { V3Event } from '../v3/types.js';
import type { CoreEventDataMap, ToolEffect } from '../types.js';
import { FORKED_NOT_STARTED_TEXT, FORKED_RESULT_PREFIX, forkedStartedText } from './forked-results.js';

const EFFECTS: readonly ToolEffect[] = ['read-only', 'idempotent', 'side-effect', 'unknown'];

/** Forked canonical wording → the interrupted canonical wording it mirrors. */
const FORKED_TO_INTERRUPTED: ReadonlyMap<string, string> = new Map([
  [FORKED_NOT_STARTED_TEXT, INTERRUPTED_NOT_STARTED_TEXT],
  ...EFFECTS.map((effect) => [forkedStartedText(effect), interruptedStartedText(effect)] as const),
]);

/** Stands in for interrupted wording under a forked id, so the V3 check cannot accept it. */
const NOT_FORKED_WORDING = '(not the canonical forked wording)';

const RESERVED_CODES: ReadonlySet<string> = new Set([TOOL_NOT_STARTED_ERROR.code, TOOL_OUTCOME_UNKNOWN_ERROR.code]);
const RESERVED_NAMES: ReadonlySet<string> = new Set([TOOL_NOT_STARTED_ERROR.name, TOOL_OUTCOME_UNKNOWN_ERROR.name]);

/**
 * The V3 view of a shape-valid V4 event: fork closers (a `forked` turn end, a result with a
 * reserved error and a forked id) become their interrupted mirror; every other event is itself.
 */
export function toInterruptedView(event: V3Event): { view: V3Event; mapped: boolean } {
  const view = interruptedViewOf(event);
  return { view, mapped: view !== event };
}

/**
 * `toInterruptedView`'s view alone: `event` itself unless it is a fork closer (then a new object),
 * so the open path allocates nothing for the events that are not closers.
 */
export function interruptedViewOf(event: V3Event): V3Event {
  if (event.type === 'turn/end') {
    const data = event.data as CoreEventDataMap['turn/end'];
    if (data.reason.kind !== 'forked') return event;
    return { ...event, data: { turn: data.turn, reason: { kind: 'interrupted' } } };
  }
  if (event.type !== 'tool/result') return event;
  const data = event.data as CoreEventDataMap['tool/result'];
  const error = data.error;
  const reserved = error !== undefined && (RESERVED_CODES.has(error.code) || RESERVED_NAMES.has(error.name));
  if (!reserved || !data.message.id.startsWith(FORKED_RESULT_PREFIX)) return event;
  const content = data.message.content.map((block) => {
    if (block.type !== 'text') return block;
    const mirrored = FORKED_TO_INTERRUPTED.get(block.text);
    if (mirrored !== undefined) return { type: 'text' as const, text: mirrored };
    const interruptedWording = block.text === INTERRUPTED_NOT_STARTED_TEXT || INTERRUPTED_STARTED_TEXTS.has(block.text);
    return interruptedWording ? { type: 'text' as const, text: NOT_FORKED_WORDING } : block;
  });
  const id = INTERRUPTED_RESULT_PREFIX + data.message.id.slice(FORKED_RESULT_PREFIX.length);
  return { ...event, data: { ...data, message: { ...data.message, id, content } } };
}
