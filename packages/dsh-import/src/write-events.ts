/**
 * Turns the format-neutral item stream into current-format `SessionEvent`s: a user prompt opens a
 * turn, one model response is one step, each declared call gets its `tool/call` right after the
 * response, results answer them.
 * Nothing is invented: calls without a result at the end are left open for the store's closer.
 */
import type { ContentBlock, JsonValue, SessionConfig, SessionEvent, ToolEffect } from 'dsh-codec';
import { IMPORT_SOURCE_EVENT } from './import-source.js';
import type { SourceItem } from './source-item.js';
import {
  markWriterState,
  newWriterState,
  rollbackWriterState,
  type Prompt,
  type WriterMark,
  type WriterState,
} from './event-writer-state.js';
import { printableTitle } from './printable-title.js';
import { runnableModelSpec } from './runnable-model-spec.js';
import { emitEvent, endStep, endTurn, flushDeferred, startTurn, userMessage } from './turn-events.js';

/** The events of one line of a transcript. */
export type WrittenEvents = { events: SessionEvent[]; warnings: string[] };

export type { WriterMark } from './event-writer-state.js';

/**
 * Writes the events of an item stream as it is fed (`finish` closes it). `mark` / `rollback` return
 * it to an earlier item and `finishedTail` says what `finish` would add now, without finishing:
 * what `dsh show --entries` needs to read every prefix of a line in one pass.
 */
export class EventWriter {
  /** Everything feeding changes, with its marks in `event-writer-state.ts`; the turn and step framing is `turn-events.ts`. */
  private readonly state: WriterState = newWriterState();
  readonly events: SessionEvent[] = this.state.events;
  readonly warnings: string[] = this.state.warnings;

  /** `keyed`: the keys compactions keep from (`keyedItems`). */
  constructor(
    private readonly effectOf: (name: string) => ToolEffect,
    private readonly keyed: ReadonlySet<string>,
  ) {}

  feed(item: SourceItem): void {
    if (this.keyed.size > 0 && this.keyed.has(item.key) && !this.state.seqOfKey.has(item.key))
      this.state.seqOfKey.set(item.key, this.events.length);
    // Events that close what came before keep the earlier time (so two branches agree on them);
    // each handler moves the clock to the item's time once it has closed what it must.
    this.state.itemTime = item.time;
    switch (item.kind) {
      case 'prompt':
        if (item.opensTurn) this.prompt(item);
        else this.context(item);
        break;
      case 'response':
        this.response(item);
        break;
      case 'result':
        this.result(item);
        break;
      case 'compaction':
        this.compaction(item);
        break;
      case 'config':
        this.advance();
        this.configure(item.config);
        break;
      case 'title': {
        this.advance();
        // Held to the API's rule: a foreign file's title never carries a terminal command or overflows a listing.
        const title = printableTitle(item.title);
        if (title !== undefined && title !== this.state.title) {
          this.state.title = title;
          emitEvent(this.state, 'session/title', { title });
        }
        break;
      }
      case 'source':
        this.advance();
        emitEvent(this.state, IMPORT_SOURCE_EVENT, item.data, { ignorable: true });
        break;
      case 'outcome':
        this.advance();
        if (this.state.turnOpen) this.state.outcome = item.outcome;
        break;
    }
  }

  /** Where the writer stands now. */
  mark(): WriterMark {
    return markWriterState(this.state);
  }

  /** Returns the writer to `mark` (taken on it since): what was written after it is dropped. */
  rollback(mark: WriterMark): void {
    rollbackWriterState(this.state, mark);
  }

  /** The events `finish` would add now; the writer stays where it is. */
  finishedTail(): SessionEvent[] {
    const mark = this.mark();
    this.finish();
    const tail = this.events.slice(mark.events);
    this.rollback(mark);
    return tail;
  }

  /** Closes what the source closed; leaves a turn open when the model still owed an answer. */
  finish(): void {
    const step = this.state.step;
    if (step !== undefined && step.pending.length === 0) endStep(this.state);
    if (this.state.step === undefined) flushDeferred(this.state);
    else for (const prompt of this.state.deferred.splice(0)) userMessage(this.state, prompt);
    if (this.state.turnOpen && this.state.step === undefined && this.state.stepsInTurn > 0 && !this.state.lastStepHadCalls)
      endTurn(this.state);
  }

  private advance(): void {
    if (Number.isFinite(this.state.itemTime)) this.state.lastTime = this.state.itemTime;
  }

  private configure(config: SessionConfig): void {
    // The source's model name is recorded as a spec dsh can run (SPEC §25: `claude-…` → `anthropic:claude-…`).
    const next: SessionConfig = {
      ...this.state.config,
      ...config,
      ...(config.model === undefined ? {} : { model: runnableModelSpec(config.model) }),
    };
    if (next.cwd === this.state.config.cwd && next.model === this.state.config.model && next.tools === this.state.config.tools) return;
    this.state.config = next;
    const data: { [key: string]: JsonValue } = {};
    if (next.cwd !== undefined) data.cwd = next.cwd;
    if (next.model !== undefined) data.model = next.model;
    emitEvent(this.state, 'session/config', data);
  }

  private prompt(item: Prompt): void {
    // Several user messages before any model response belong to one turn (context, then the prompt).
    if (this.state.turnOpen && (this.state.stepsInTurn > 0 || this.state.step !== undefined)) endTurn(this.state);
    this.advance();
    if (!this.state.turnOpen) startTurn(this.state);
    userMessage(this.state, item);
  }

  private context(item: Prompt): void {
    if (!this.state.turnOpen) {
      this.advance();
      startTurn(this.state);
      userMessage(this.state, item);
      return;
    }
    const step = this.state.step;
    // Text between a call and its result would split them on the wire: it waits for the results.
    if (step !== undefined && step.pending.length > 0) {
      this.state.deferred.push(item);
      return;
    }
    endStep(this.state);
    this.advance();
    userMessage(this.state, item);
  }

  private response(item: Extract<SourceItem, { kind: 'response' }>): void {
    endStep(this.state);
    flushDeferred(this.state);
    this.advance();
    if (!this.state.turnOpen) startTurn(this.state);
    const number = ++this.state.stepsInTurn;
    emitEvent(this.state, 'step/start', { turn: this.state.turn, step: number });
    const declared: string[] = [];
    // `map`, not `push`: the array is the event's, allocated at its length.
    const content = item.content.map((block): ContentBlock => {
      if (block.type !== 'tool-call' || !declared.includes(block.id)) {
        if (block.type === 'tool-call') declared.push(block.id);
        return block;
      }
      // A call id repeated inside one response cannot be told apart from the first: kept as text.
      this.warnings.push(`response ${item.id}: call id ${block.id} declared twice; the second declaration is kept as text`);
      return { type: 'text', text: `[repeated tool call ${block.id}: ${block.name} ${block.arguments}]` };
    });
    const data: { [key: string]: JsonValue } = {
      turn: this.state.turn,
      step: number,
      message: { id: item.id, role: 'assistant', content },
    };
    if (item.usage !== undefined) data.usage = item.usage;
    emitEvent(this.state, 'assistant/message', data);
    this.state.step = { step: number, pending: declared.slice(), declared };
    this.state.lastStepHadCalls = declared.length > 0;
    for (const call of content) {
      if (call.type !== 'tool-call') continue;
      emitEvent(this.state, 'tool/call', {
        turn: this.state.turn,
        step: number,
        callId: call.id,
        name: call.name,
        arguments: call.arguments,
        effect: this.effectOf(call.name),
      });
    }
    if (item.outcome !== undefined) this.state.outcome = item.outcome;
  }

  private result(item: Extract<SourceItem, { kind: 'result' }>): void {
    this.advance();
    const step = this.state.step;
    const pending = step === undefined ? -1 : step.pending.indexOf(item.callId);
    if (step === undefined || pending < 0) {
      const why = step?.declared.includes(item.callId) === true ? 'was already answered' : 'is not a call of the open step';
      this.warnings.push(`result ${item.id} for call ${item.callId} skipped: the call ${why}`);
      return;
    }
    step.pending.splice(pending, 1);
    emitEvent(this.state, 'tool/result', {
      turn: this.state.turn,
      step: step.step,
      message: { id: item.id, role: 'tool', callId: item.callId, content: item.content, isError: item.isError },
    });
    if (step.pending.length === 0 && this.state.deferred.length > 0) {
      endStep(this.state);
      flushDeferred(this.state);
    }
  }

  private compaction(item: Extract<SourceItem, { kind: 'compaction' }>): void {
    // A compaction stands between steps: an open step ends here, its unanswered calls stay unanswered.
    endStep(this.state);
    flushDeferred(this.state);
    // After a final answer the turn is over: the compaction stands between turns, as /compact does.
    if (this.state.turnOpen && this.state.stepsInTurn > 0 && !this.state.lastStepHadCalls) endTurn(this.state);
    this.advance();
    const keptFrom = item.keepFrom === undefined ? undefined : this.state.seqOfKey.get(item.keepFrom);
    const replaced = this.state.surfaceSeqs.filter((seq) => keptFrom === undefined || seq < keptFrom);
    const message = { id: item.id, role: 'user', content: [{ type: 'text', text: item.summary }] };
    if (replaced.length === 0) {
      // Nothing to replace: the summary is plain context of the (possibly new) turn.
      if (!this.state.turnOpen) startTurn(this.state);
      emitEvent(this.state, 'user/message', { message });
      return;
    }
    const range = { start: replaced[0] as number, end: replaced[replaced.length - 1] as number };
    const startSeq = emitEvent(
      this.state,
      'compaction/start',
      { turn: this.state.turnOpen ? this.state.turn : null, replace: range },
      { ignorable: true },
    );
    emitEvent(this.state, 'compaction/summary', { startSeq, summary: item.summary, messageCount: replaced.length }, { ignorable: true });
    emitEvent(this.state, 'user/message', { message }, { surfaceOp: { op: 'replace', ...range } });
    emitEvent(this.state, 'compaction/end', { startSeq, status: 'completed' }, { ignorable: true });
  }
}

/** The `SessionEvent`s (current format) of `items` in order; `effectOf` is the format's known-tool table. */
export function writeEvents(items: readonly SourceItem[], effectOf: (name: string) => ToolEffect): WrittenEvents {
  const writer = new EventWriter(effectOf, keyedItems(items));
  for (const item of items) writer.feed(item);
  writer.finish();
  return { events: writer.events, warnings: writer.warnings };
}

/** The keys of the entries compactions among `items` keep from. */
export function keyedItems(items: readonly SourceItem[]): Set<string> {
  const keyed = new Set<string>();
  for (const item of items) if (item.kind === 'compaction' && item.keepFrom !== undefined) keyed.add(item.keepFrom);
  return keyed;
}
