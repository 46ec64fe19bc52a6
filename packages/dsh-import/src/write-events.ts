/**
 * Turns the format-neutral item stream into current-format `SessionEvent`s: a user prompt opens a
 * turn, one model response is one step, each declared call gets its `tool/call` right after the
 * response, results answer them.
 * Nothing is invented: calls without a result at the end are left open for the store's closer.
 */
import type { ContentBlock, JsonValue, SessionConfig, SessionEvent, SurfaceOp, ToolEffect, TurnEndReason } from 'dsh-codec';
import { IMPORT_SOURCE_EVENT } from './import-source.js';
import type { SourceItem, TurnOutcome } from './source-item.js';
import { printableTitle } from './printable-title.js';
import { runnableModelSpec } from './runnable-model-spec.js';

/** The events of one line of a transcript. */
export type WrittenEvents = { events: SessionEvent[]; warnings: string[] };

// A step declares a few calls: arrays, not sets (two sets per step were about a tenth of what an
// import allocates besides the parse).
type OpenStep = { step: number; pending: string[]; declared: readonly string[] };
type Prompt = Extract<SourceItem, { kind: 'prompt' }>;

const SURFACE = new Set(['user/message', 'assistant/message', 'tool/result']);

/** Where an `EventWriter` stood: what `rollback` returns it to. */
export type WriterMark = {
  events: number;
  keys: number;
  warnings: number;
  surface: number;
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

/**
 * Writes the events of an item stream as it is fed (`finish` closes it). `mark` / `rollback` return
 * it to an earlier item and `finishedTail` says what `finish` would add now, without finishing:
 * what `dsh show --entries` needs to read every prefix of a line in one pass.
 */
export class EventWriter {
  readonly events: SessionEvent[] = [];
  /** The first seq each entry a compaction keeps from produced (only those keys: `keyed`). */
  private readonly seqOfKey = new Map<string, number>();
  readonly warnings: string[] = [];
  private readonly surfaceSeqs: number[] = [];
  private turn = 0;
  private turnOpen = false;
  private stepsInTurn = 0;
  private lastStepHadCalls = false;
  private step: OpenStep | undefined;
  private outcome: TurnOutcome | undefined;
  private deferred: Prompt[] = [];
  private lastTime = 0;
  private itemTime = Number.NaN;
  private config: SessionConfig = {};
  private title: string | undefined;

  /** `keyed`: the keys compactions keep from (`keyedItems`). */
  constructor(
    private readonly effectOf: (name: string) => ToolEffect,
    private readonly keyed: ReadonlySet<string>,
  ) {}

  feed(item: SourceItem): void {
    if (this.keyed.size > 0 && this.keyed.has(item.key) && !this.seqOfKey.has(item.key)) this.seqOfKey.set(item.key, this.events.length);
    // Events that close what came before keep the earlier time (so two branches agree on them);
    // each handler moves the clock to the item's time once it has closed what it must.
    this.itemTime = item.time;
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
        if (title !== undefined && title !== this.title) {
          this.title = title;
          this.emit('session/title', { title });
        }
        break;
      }
      case 'source':
        this.advance();
        this.emit(IMPORT_SOURCE_EVENT, item.data, { ignorable: true });
        break;
      case 'outcome':
        this.advance();
        if (this.turnOpen) this.outcome = item.outcome;
        break;
    }
  }

  /** Where the writer stands now. */
  mark(): WriterMark {
    const step = this.step;
    return {
      events: this.events.length,
      keys: this.seqOfKey.size,
      warnings: this.warnings.length,
      surface: this.surfaceSeqs.length,
      turn: this.turn,
      turnOpen: this.turnOpen,
      stepsInTurn: this.stepsInTurn,
      lastStepHadCalls: this.lastStepHadCalls,
      step: step === undefined ? undefined : { step: step.step, pending: step.pending.slice(), declared: step.declared },
      outcome: this.outcome,
      deferred: this.deferred.slice(),
      lastTime: this.lastTime,
      itemTime: this.itemTime,
      config: this.config,
      title: this.title,
    };
  }

  /** Returns the writer to `mark` (taken on it since): what was written after it is dropped. */
  rollback(mark: WriterMark): void {
    this.events.length = mark.events;
    this.warnings.length = mark.warnings;
    this.surfaceSeqs.length = mark.surface;
    if (this.seqOfKey.size > mark.keys) {
      const later = [...this.seqOfKey.keys()].slice(mark.keys);
      for (const key of later) this.seqOfKey.delete(key);
    }
    this.turn = mark.turn;
    this.turnOpen = mark.turnOpen;
    this.stepsInTurn = mark.stepsInTurn;
    this.lastStepHadCalls = mark.lastStepHadCalls;
    const step = mark.step;
    this.step = step === undefined ? undefined : { step: step.step, pending: step.pending.slice(), declared: step.declared };
    this.outcome = mark.outcome;
    this.deferred = mark.deferred.slice();
    this.lastTime = mark.lastTime;
    this.itemTime = mark.itemTime;
    this.config = mark.config;
    this.title = mark.title;
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
    const step = this.step;
    if (step !== undefined && step.pending.length === 0) this.endStep();
    if (this.step === undefined) this.flushDeferred();
    else for (const prompt of this.deferred.splice(0)) this.userMessage(prompt);
    if (this.turnOpen && this.step === undefined && this.stepsInTurn > 0 && !this.lastStepHadCalls) this.endTurn();
  }

  private advance(): void {
    if (Number.isFinite(this.itemTime)) this.lastTime = this.itemTime;
  }

  private emit(type: string, data: JsonValue, extra?: { surfaceOp?: SurfaceOp; ignorable?: true }): number {
    const seq = this.events.length;
    const event: SessionEvent =
      extra === undefined ? { seq, type, time: this.lastTime, data } : { seq, type, time: this.lastTime, data, ...extra };
    this.events.push(event);
    if (SURFACE.has(type)) this.surfaceSeqs.push(seq);
    return seq;
  }

  private configure(config: SessionConfig): void {
    // The source's model name is recorded as a spec dsh can run (SPEC §25: `claude-…` → `anthropic:claude-…`).
    const next: SessionConfig = {
      ...this.config,
      ...config,
      ...(config.model === undefined ? {} : { model: runnableModelSpec(config.model) }),
    };
    if (next.cwd === this.config.cwd && next.model === this.config.model && next.tools === this.config.tools) return;
    this.config = next;
    const data: { [key: string]: JsonValue } = {};
    if (next.cwd !== undefined) data.cwd = next.cwd;
    if (next.model !== undefined) data.model = next.model;
    this.emit('session/config', data);
  }

  private startTurn(): void {
    this.turn++;
    this.turnOpen = true;
    this.stepsInTurn = 0;
    this.lastStepHadCalls = false;
    this.outcome = undefined;
    this.emit('turn/start', { turn: this.turn });
  }

  private endStep(): void {
    const step = this.step;
    if (step === undefined) return;
    this.emit('step/end', { turn: this.turn, step: step.step });
    this.step = undefined;
  }

  private endTurn(): void {
    this.endStep();
    this.flushDeferred();
    const outcome = this.outcome;
    const reason: TurnEndReason =
      outcome === undefined
        ? { kind: 'completed' }
        : outcome.kind === 'cancelled'
          ? { kind: 'cancelled' }
          : { kind: 'error', error: { message: outcome.message, code: 'SOURCE_ERROR' } };
    this.emit('turn/end', { turn: this.turn, reason });
    this.turnOpen = false;
  }

  private flushDeferred(): void {
    for (const prompt of this.deferred.splice(0)) this.userMessage(prompt);
  }

  private userMessage(prompt: Prompt): void {
    this.emit('user/message', { message: { id: prompt.id, role: 'user', content: prompt.content } });
  }

  private prompt(item: Prompt): void {
    // Several user messages before any model response belong to one turn (context, then the prompt).
    if (this.turnOpen && (this.stepsInTurn > 0 || this.step !== undefined)) this.endTurn();
    this.advance();
    if (!this.turnOpen) this.startTurn();
    this.userMessage(item);
  }

  private context(item: Prompt): void {
    if (!this.turnOpen) {
      this.advance();
      this.startTurn();
      this.userMessage(item);
      return;
    }
    const step = this.step;
    // Text between a call and its result would split them on the wire: it waits for the results.
    if (step !== undefined && step.pending.length > 0) {
      this.deferred.push(item);
      return;
    }
    this.endStep();
    this.advance();
    this.userMessage(item);
  }

  private response(item: Extract<SourceItem, { kind: 'response' }>): void {
    this.endStep();
    this.flushDeferred();
    this.advance();
    if (!this.turnOpen) this.startTurn();
    const number = ++this.stepsInTurn;
    this.emit('step/start', { turn: this.turn, step: number });
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
    const data: { [key: string]: JsonValue } = { turn: this.turn, step: number, message: { id: item.id, role: 'assistant', content } };
    if (item.usage !== undefined) data.usage = item.usage;
    this.emit('assistant/message', data);
    this.step = { step: number, pending: declared.slice(), declared };
    this.lastStepHadCalls = declared.length > 0;
    for (const call of content) {
      if (call.type !== 'tool-call') continue;
      this.emit('tool/call', {
        turn: this.turn,
        step: number,
        callId: call.id,
        name: call.name,
        arguments: call.arguments,
        effect: this.effectOf(call.name),
      });
    }
    if (item.outcome !== undefined) this.outcome = item.outcome;
  }

  private result(item: Extract<SourceItem, { kind: 'result' }>): void {
    this.advance();
    const step = this.step;
    const pending = step === undefined ? -1 : step.pending.indexOf(item.callId);
    if (step === undefined || pending < 0) {
      const why = step?.declared.includes(item.callId) === true ? 'was already answered' : 'is not a call of the open step';
      this.warnings.push(`result ${item.id} for call ${item.callId} skipped: the call ${why}`);
      return;
    }
    step.pending.splice(pending, 1);
    this.emit('tool/result', {
      turn: this.turn,
      step: step.step,
      message: { id: item.id, role: 'tool', callId: item.callId, content: item.content, isError: item.isError },
    });
    if (step.pending.length === 0 && this.deferred.length > 0) {
      this.endStep();
      this.flushDeferred();
    }
  }

  private compaction(item: Extract<SourceItem, { kind: 'compaction' }>): void {
    // A compaction stands between steps: an open step ends here, its unanswered calls stay unanswered.
    this.endStep();
    this.flushDeferred();
    // After a final answer the turn is over: the compaction stands between turns, as /compact does.
    if (this.turnOpen && this.stepsInTurn > 0 && !this.lastStepHadCalls) this.endTurn();
    this.advance();
    const keptFrom = item.keepFrom === undefined ? undefined : this.seqOfKey.get(item.keepFrom);
    const replaced = this.surfaceSeqs.filter((seq) => keptFrom === undefined || seq < keptFrom);
    const message = { id: item.id, role: 'user', content: [{ type: 'text', text: item.summary }] };
    if (replaced.length === 0) {
      // Nothing to replace: the summary is plain context of the (possibly new) turn.
      if (!this.turnOpen) this.startTurn();
      this.emit('user/message', { message });
      return;
    }
    const range = { start: replaced[0] as number, end: replaced[replaced.length - 1] as number };
    const startSeq = this.emit('compaction/start', { turn: this.turnOpen ? this.turn : null, replace: range }, { ignorable: true });
    this.emit('compaction/summary', { startSeq, summary: item.summary, messageCount: replaced.length }, { ignorable: true });
    this.emit('user/message', { message }, { surfaceOp: { op: 'replace', ...range } });
    this.emit('compaction/end', { startSeq, status: 'completed' }, { ignorable: true });
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
