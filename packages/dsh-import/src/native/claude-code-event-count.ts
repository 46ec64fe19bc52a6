/**
 * `claudeCodeEventCount`: how many events `dsh import` reads from one line of Claude Code entries
 * (the main line of their import), and the calls open at its end — from the entries' rows in the
 * file's line table (`ClaudeCodeLineTable`: skeletons as integers), without building items or events. It follows the reader (`itemsOf` in read-claude-code.ts: one
 * item per prompt, response, result, compaction and config change, a split response's calls merged
 * into its first line) and the writer (`writeEvents`: which events each item emits in the state the
 * items before left) step for step, keeping only what decides a count: whether a turn and a step are
 * open, the open step's unanswered calls, held prompts, whether any message was written yet. The
 * property test `claude-code-event-count.property.test.ts` holds it equal to the import's reading.
 * @module
 */
import { claudeCodeEffectOf } from '../claude-code/claude-code-effects.js';
import { CLAUDE_CODE_INTERRUPTED } from './claude-code-skeleton.js';
import * as slots from './claude-code-line-table.js';
import type { ClaudeCodeKeys as Keys, ClaudeCodeLineTable } from './claude-code-line-table.js';
import type { OpenCall } from './open-calls.js';

/** The count of events of the reading (seqs 0..count-1) and the calls open at its end. */
export type ClaudeCodeEventCount = { count: number; openCalls: OpenCall[] };

/** A call: the keys of its id and name (as the reader takes them: `String(undefined)` for none). */
type Call = { id: number; name: number };

/** The items of the reader, as far as the writer's counts depend on them. */
type Item =
  | { kind: 'prompt'; opensTurn: boolean }
  | { kind: 'response'; calls: Call[] }
  | { kind: 'result'; callId: number }
  | { kind: 'compaction' }
  | { kind: 'config' };

const CONFIG: Item = { kind: 'config' };
const COMPACTION: Item = { kind: 'compaction' };
const PROMPT_OPENING: Item = { kind: 'prompt', opensTurn: true };
const PROMPT_INSIDE: Item = { kind: 'prompt', opensTurn: false };

/** Whether block `block`, which the reader keeps as text, holds the interruption marker at its start. */
function interrupts(table: ClaudeCodeLineTable, keys: Keys, block: number): boolean {
  const type = table.blockAt(block, slots.BLOCK_TYPE);
  const text = table.blockAt(block, slots.BLOCK_TEXT);
  if (type === keys.text && text !== slots.MARK_NONE) return text === slots.MARK_INTERRUPTED;
  // Any other block is a placeholder text: `[image…]` or `[<type> block]`.
  const name = type < 0 ? 'unknown' : table.strings.string(type);
  return name !== 'image' && `[${name} block]`.startsWith(CLAUDE_CODE_INTERRUPTED);
}

/** The reader's items of the rows `entries` (each an entry of the line: a string uuid), as `itemsOf` makes them. */
function itemsOf(table: ClaudeCodeLineTable, keys: Keys, entries: readonly number[]): Item[] {
  const items: Item[] = [];
  const at = (row: number, slot: number): number => table.at(row, slot);
  const callKey = (key: number): number => (key < 0 ? keys.undefined : key);
  let responses = new Map<number, Call[]>();
  let cwd = -1;
  let model = -1;
  let pendingCompaction = false;
  for (const row of entries) {
    const entryCwd = at(row, slots.CWD);
    if (entryCwd >= 0 && entryCwd !== cwd) {
      cwd = entryCwd;
      items.push(CONFIG);
    }
    const type = at(row, slots.TYPE);
    if (type === keys.system) {
      if (at(row, slots.SUBTYPE) === keys.compactBoundary) pendingCompaction = true;
      continue;
    }
    if (at(row, slots.MESSAGE) !== 1) continue;
    const content = at(row, slots.CONTENT);
    const blocksStart = at(row, slots.BLOCKS_START);
    const blocksEnd = content === slots.CONTENT_BLOCKS ? at(row, slots.BLOCKS_END) : blocksStart;
    if (type === keys.assistant) {
      const messageId = at(row, slots.MESSAGE_ID);
      const uuid = at(row, slots.UUID);
      const id = messageId >= 0 ? messageId : uuid >= 0 ? uuid : keys.empty;
      const entryModel = at(row, slots.MODEL);
      if (entryModel >= 0 && entryModel !== keys.synthetic && entryModel !== model) {
        model = entryModel;
        items.push(CONFIG);
      }
      let calls = responses.get(id);
      if (calls === undefined) {
        calls = [];
        responses.set(id, calls);
        items.push({ kind: 'response', calls });
      }
      for (let block = blocksStart; block < blocksEnd; block++)
        if (table.blockAt(block, slots.BLOCK_TYPE) === keys.toolUse)
          calls.push({ id: callKey(table.blockAt(block, slots.BLOCK_ID)), name: callKey(table.blockAt(block, slots.BLOCK_NAME)) });
      continue;
    }
    if (type !== keys.user) continue;
    if (at(row, slots.IS_COMPACT_SUMMARY) === 1 || pendingCompaction) {
      pendingCompaction = false;
      items.push(COMPACTION);
      responses = new Map();
      continue;
    }
    const meta = at(row, slots.IS_META) === 1;
    if (content === slots.MARK_PLAIN || content === slots.MARK_INTERRUPTED) {
      items.push(meta ? PROMPT_INSIDE : PROMPT_OPENING);
      if (!meta) responses = new Map();
      continue;
    }
    let extra = 0;
    let hasResult = false;
    let interrupted = false;
    for (let block = blocksStart; block < blocksEnd; block++) {
      if (table.blockAt(block, slots.BLOCK_TYPE) === keys.toolResult) {
        hasResult = true;
        items.push({ kind: 'result', callId: callKey(table.blockAt(block, slots.BLOCK_TOOL_USE_ID)) });
      } else {
        extra++;
        if (interrupts(table, keys, block)) interrupted = true;
      }
    }
    if (extra > 0) {
      const opensTurn = !meta && !hasResult && !interrupted;
      items.push(opensTurn ? PROMPT_OPENING : PROMPT_INSIDE);
      if (opensTurn) responses = new Map();
    }
  }
  return items;
}

/** The writer's state machine, counting the events it would emit. */
class EventCounter {
  count = 0;
  private surface = 0;
  private turnOpen = false;
  private stepsInTurn = 0;
  private lastStepHadCalls = false;
  /** The open step's declared calls (declaration order) and those still unanswered. */
  private step: { calls: Call[]; pending: Set<number> } | undefined;
  private deferred = 0;

  feed(item: Item): void {
    switch (item.kind) {
      case 'prompt':
        if (item.opensTurn) {
          if (this.turnOpen && (this.stepsInTurn > 0 || this.step !== undefined)) this.endTurn();
          if (!this.turnOpen) this.startTurn();
          this.message();
        } else if (!this.turnOpen) {
          this.startTurn();
          this.message();
        } else if (this.step !== undefined && this.step.pending.size > 0) this.deferred++;
        else {
          this.endStep();
          this.message();
        }
        break;
      case 'response':
        this.response(item.calls);
        break;
      case 'result': {
        const step = this.step;
        if (step === undefined || !step.pending.has(item.callId)) return;
        step.pending.delete(item.callId);
        this.message();
        if (step.pending.size === 0 && this.deferred > 0) {
          this.endStep();
          this.flushDeferred();
        }
        break;
      }
      case 'compaction':
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
      case 'config':
        // The reader makes a config item only for a change: each is one `session/config`.
        this.count++;
        break;
    }
  }

  finish(): void {
    if (this.step !== undefined && this.step.pending.size === 0) this.endStep();
    this.flushDeferred();
    if (this.turnOpen && this.step === undefined && this.stepsInTurn > 0 && !this.lastStepHadCalls) this.endTurn();
  }

  /** The open step's unanswered calls, when a turn is open (as `openCallsAt` reads the events). */
  openCalls(table: ClaudeCodeLineTable): OpenCall[] {
    const step = this.step;
    if (!this.turnOpen || step === undefined) return [];
    return step.calls
      .filter((call) => step.pending.has(call.id))
      .map((call) => {
        const name = table.strings.string(call.name);
        return { callId: table.strings.string(call.id), name, started: true, effect: claudeCodeEffectOf(name) };
      });
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
    if (this.step === undefined) return;
    this.count++;
    this.step = undefined;
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

  private response(declaredCalls: readonly Call[]): void {
    this.endStep();
    this.flushDeferred();
    if (!this.turnOpen) this.startTurn();
    this.stepsInTurn++;
    // step/start, the assistant message.
    this.count++;
    this.message();
    // A call id declared twice in one response: the second is kept as text.
    const pending = new Set<number>();
    const calls: Call[] = [];
    for (const call of declaredCalls) {
      if (pending.has(call.id)) continue;
      pending.add(call.id);
      calls.push(call);
    }
    this.step = { calls, pending };
    this.lastStepHadCalls = calls.length > 0;
    // One tool/call per call.
    this.count += calls.length;
  }
}

/**
 * The number of events of the import's reading of the line `entries` (rows of `table`; its
 * `import/source` and title events included) and the calls open at its end, each started (its
 * `tool/call` follows the response) with its effect.
 */
export function claudeCodeEventCount(table: ClaudeCodeLineTable, entries: readonly number[]): ClaudeCodeEventCount {
  const keys = table.keys();
  const counter = new EventCounter();
  // `import/source` and the session's title come first.
  counter.count = 2;
  for (const item of itemsOf(table, keys, entries)) counter.feed(item);
  counter.finish();
  return { count: counter.count, openCalls: counter.openCalls(table) };
}
