/**
 * @module The mutable state of an `EventWriter` (`write-events.ts`) as one value, and its marks: a
 * mark is where the writer stood after an item, and rolling back returns the state to it — the
 * append-only arrays are cut to their length then, and what later items change in place (the open
 * step's `pending` calls, the deferred prompts) was copied when the mark was taken.
 */
import type { SessionConfig, SessionEvent } from 'dsh-codec';
import type { SourceItem, TurnOutcome } from './source-item.js';

/**
 * The step whose calls are still answered. A step declares a few calls: arrays, not sets (two sets
 * per step were about a tenth of what an import allocates besides the parse).
 */
export type OpenStep = { step: number; pending: string[]; declared: readonly string[] };

/** A user prompt, as the writer holds it back until the calls it would split are answered. */
export type Prompt = Extract<SourceItem, { kind: 'prompt' }>;

/** Everything an `EventWriter` changes as it is fed. */
export type WriterState = {
  readonly events: SessionEvent[];
  /** The first seq each entry a compaction keeps from produced (only the writer's `keyed` keys). */
  readonly seqOfKey: Map<string, number>;
  readonly warnings: string[];
  /** The seqs of the events a compaction can replace (messages and results). */
  readonly surfaceSeqs: number[];
  turn: number;
  turnOpen: boolean;
  stepsInTurn: number;
  lastStepHadCalls: boolean;
  step: OpenStep | undefined;
  outcome: TurnOutcome | undefined;
  deferred: Prompt[];
  lastTime: number;
  itemTime: number;
  config: SessionConfig;
  title: string | undefined;
};

/** Where an `EventWriter` stood: what `rollback` returns it to — the lengths of its lists and its other fields as they were. */
export type WriterMark = { events: number; keys: number; warnings: number; surface: number } & Omit<
  WriterState,
  'events' | 'seqOfKey' | 'warnings' | 'surfaceSeqs'
>;

/** The state of a writer fed nothing yet. */
export function newWriterState(): WriterState {
  return {
    events: [],
    seqOfKey: new Map(),
    warnings: [],
    surfaceSeqs: [],
    turn: 0,
    turnOpen: false,
    stepsInTurn: 0,
    lastStepHadCalls: false,
    step: undefined,
    outcome: undefined,
    deferred: [],
    lastTime: 0,
    itemTime: Number.NaN,
    config: {},
    title: undefined,
  };
}

/** A copy of `step` whose `pending` later answers do not change. */
function copyStep(step: OpenStep | undefined): OpenStep | undefined {
  return step === undefined ? undefined : { step: step.step, pending: step.pending.slice(), declared: step.declared };
}

/** Where `state` stands now. */
export function markWriterState(state: WriterState): WriterMark {
  return {
    events: state.events.length,
    keys: state.seqOfKey.size,
    warnings: state.warnings.length,
    surface: state.surfaceSeqs.length,
    turn: state.turn,
    turnOpen: state.turnOpen,
    stepsInTurn: state.stepsInTurn,
    lastStepHadCalls: state.lastStepHadCalls,
    step: copyStep(state.step),
    outcome: state.outcome,
    deferred: state.deferred.slice(),
    lastTime: state.lastTime,
    itemTime: state.itemTime,
    config: state.config,
    title: state.title,
  };
}

/** Returns `state` to `mark` (taken on it since): what was written after it is dropped. */
export function rollbackWriterState(state: WriterState, mark: WriterMark): void {
  state.events.length = mark.events;
  state.warnings.length = mark.warnings;
  state.surfaceSeqs.length = mark.surface;
  if (state.seqOfKey.size > mark.keys) {
    const later = [...state.seqOfKey.keys()].slice(mark.keys);
    for (const key of later) state.seqOfKey.delete(key);
  }
  state.turn = mark.turn;
  state.turnOpen = mark.turnOpen;
  state.stepsInTurn = mark.stepsInTurn;
  state.lastStepHadCalls = mark.lastStepHadCalls;
  state.step = copyStep(mark.step);
  state.outcome = mark.outcome;
  state.deferred = mark.deferred.slice();
  state.lastTime = mark.lastTime;
  state.itemTime = mark.itemTime;
  state.config = mark.config;
  state.title = mark.title;
}
