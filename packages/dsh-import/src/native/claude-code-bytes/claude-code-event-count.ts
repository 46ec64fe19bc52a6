/**
 * `claudeCodeEventCount`: how many events `dsh import` reads from one line of Claude Code entries
 * (the main line of their import), and the calls open at its end — from the entries' rows in the
 * file's line table (`ClaudeCodeLineTable`: skeletons as integers), without building events or an
 * object per item. It follows the reader (`claudeCodeItems`: its items as integers) and the writer
 * (`writeEvents`: which events each item emits in the state the items before left) step for step,
 * keeping only what decides a count: whether a turn and a step are open, the open step's unanswered
 * calls, held prompts, whether any message was written yet. The property test `claude-code-event-count.property.test.ts` holds it equal to the import's reading.
 * @module
 */
import { claudeCodeEffectOf } from '../../claude-code/claude-code-effects.js';
import type { ClaudeCodeLineTable } from './claude-code-line-table.js';
import {
  claudeCodeItems,
  COMPACTION,
  CONFIG,
  ITEM_BITS,
  ITEM_MASK,
  PROMPT_INSIDE,
  PROMPT_OPENING,
  RESPONSE,
  RESULT,
  type ClaudeCodeItems as Items,
} from './claude-code-items.js';
import type { OpenCall } from '../open-calls.js';

/** The count of events of the reading (seqs 0..count-1) and the calls open at its end. */
export type ClaudeCodeEventCount = { count: number; openCalls: OpenCall[] };

/** The writer's state machine, counting the events it would emit. */
class EventCounter {
  count = 0;
  private surface = 0;
  private turnOpen = false;
  private stepsInTurn = 0;
  private lastStepHadCalls = false;
  /** The open step's response (-1: none), and its unanswered calls: the call id keys `pending` holds `serial` for. */
  private step = -1;
  private serial = 0;
  private readonly pending: Int32Array;
  private pendingCount = 0;
  private deferred = 0;

  constructor(
    private readonly of: Items,
    keyCount: number,
  ) {
    this.pending = new Int32Array(keyCount);
  }

  feed(item: number): void {
    switch (item & ITEM_MASK) {
      case PROMPT_OPENING:
        if (this.turnOpen && (this.stepsInTurn > 0 || this.step >= 0)) this.endTurn();
        if (!this.turnOpen) this.startTurn();
        this.message();
        break;
      case PROMPT_INSIDE:
        if (!this.turnOpen) {
          this.startTurn();
          this.message();
        } else if (this.step >= 0 && this.pendingCount > 0) this.deferred++;
        else {
          this.endStep();
          this.message();
        }
        break;
      case RESPONSE:
        this.response(item >> ITEM_BITS);
        break;
      case RESULT: {
        const callId = item >> ITEM_BITS;
        if (this.step < 0 || this.pending[callId] !== this.serial) return;
        this.pending[callId] = 0;
        this.pendingCount--;
        this.message();
        if (this.pendingCount === 0 && this.deferred > 0) {
          this.endStep();
          this.flushDeferred();
        }
        break;
      }
      case COMPACTION:
        this.endStep();
        this.flushDeferred();
        if (this.turnOpen && this.stepsInTurn > 0 && !this.lastStepHadCalls) this.endTurn();
        if (this.surface === 0) {
          if (!this.turnOpen) this.startTurn();
          this.message();
        } else {
          // compaction/start, compaction/summary, the summary message, compaction/end.
          this.count += 3;
          this.message();
        }
        break;
      case CONFIG:
        // The reader makes a config item only for a change: each is one `session/config`.
        this.count++;
        break;
    }
  }

  finish(): void {
    if (this.step >= 0 && this.pendingCount === 0) this.endStep();
    this.flushDeferred();
    if (this.turnOpen && this.step < 0 && this.stepsInTurn > 0 && !this.lastStepHadCalls) this.endTurn();
  }

  /** The open step's unanswered calls (declaration order), when a turn is open (as `openCallsAt` reads the events); once, after `finish`. */
  openCalls(table: ClaudeCodeLineTable): OpenCall[] {
    if (!this.turnOpen || this.step < 0) return [];
    const { first, next, callId, callName } = this.of;
    const open: OpenCall[] = [];
    for (let call = first[this.step] as number; call >= 0; call = next[call] as number) {
      const id = callId[call] as number;
      if (this.pending[id] !== this.serial) continue;
      // A call id declared twice: its first declaration is the call.
      this.pending[id] = 0;
      const name = table.strings.string(callName[call] as number);
      open.push({ callId: table.strings.string(id), name, started: true, effect: claudeCodeEffectOf(name) });
    }
    return open;
  }

  private message(): void {
    this.count++;
    this.surface++;
  }

  private startTurn(): void {
    this.count++;
    this.turnOpen = true;
    this.stepsInTurn = 0;
    this.lastStepHadCalls = false;
  }

  private endStep(): void {
    if (this.step < 0) return;
    this.count++;
    this.step = -1;
  }

  private endTurn(): void {
    this.endStep();
    this.flushDeferred();
    this.count++;
    this.turnOpen = false;
  }

  private flushDeferred(): void {
    this.count += this.deferred;
    this.surface += this.deferred;
    this.deferred = 0;
  }

  private response(response: number): void {
    this.endStep();
    this.flushDeferred();
    if (!this.turnOpen) this.startTurn();
    this.stepsInTurn++;
    // step/start, the assistant message.
    this.count++;
    this.message();
    // A call id declared twice in one response: the second is kept as text.
    const { first, next, callId } = this.of;
    const serial = ++this.serial;
    let calls = 0;
    for (let call = first[response] as number; call >= 0; call = next[call] as number) {
      const id = callId[call] as number;
      if (this.pending[id] === serial) continue;
      this.pending[id] = serial;
      calls++;
    }
    this.step = response;
    this.pendingCount = calls;
    this.lastStepHadCalls = calls > 0;
    // One tool/call per call.
    this.count += calls;
  }
}

/**
 * The number of events of the import's reading of the line `entries` (rows of `table`; its
 * `import/source` and title events included) and the calls open at its end, each started (its
 * `tool/call` follows the response) with its effect.
 */
export function claudeCodeEventCount(table: ClaudeCodeLineTable, entries: readonly number[]): ClaudeCodeEventCount {
  const keys = table.keys();
  const items = claudeCodeItems(table, keys, entries);
  const counter = new EventCounter(items, table.strings.size);
  // `import/source` and the session's title come first.
  counter.count = 2;
  for (const item of items.items) counter.feed(item);
  counter.finish();
  return { count: counter.count, openCalls: counter.openCalls(table) };
}
