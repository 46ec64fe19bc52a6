/**
 * @module `ClaudeCodeItems`: the item stream of one line of a Claude Code tree, entry by entry — one API
 * response split over several assistant lines sharing `message.id` assembled into one item, prompts,
 * results, interruptions, compactions; with snapshots `dsh show --entries` reads every prefix by.
 */
import type { ContentBlock, JsonObject } from 'dsh-codec';
import { asRecord, asString, text } from '../read-transcript.js';
import { timeOf, type SourceItem, type TurnOutcome, type WarningTally } from '../source-item.js';
import { blocksOf, placeholder, resultContent, responseBlock, usageOf } from './claude-code-blocks.js';
import type { ClaudeCodeEntry } from './claude-code-tree.js';

const INTERRUPTED = '[Request interrupted by user';

type Entry = ClaudeCodeEntry;

type Response = Extract<SourceItem, { kind: 'response' }>;

/** What `ClaudeCodeItems.snapshot` keeps: the items' count, the open responses as they were, the state. */
export type ClaudeCodeItemsSnapshot = {
  length: number;
  responses: { id: string; index: number; content: ContentBlock[]; usage: JsonObject | undefined; outcome: TurnOutcome | undefined }[];
  cwd: string | undefined;
  model: string | undefined;
  pendingCompaction: boolean;
};

/**
 * The items of one line of the tree, entry by entry in file order: `add` each entry; `items` grows,
 * and a later line of a response already listed extends that item in place (`changedFrom` is then
 * its index). The import reads a whole line; `dsh show --entries` reads every prefix of one.
 */
export class ClaudeCodeItems {
  readonly items: SourceItem[] = [];
  /** The lowest index of `items` added or changed since the caller last set it to `items.length`. */
  changedFrom = 0;
  /** Whether the last `add` left the items and the state as they were (a line that holds nothing here). */
  inert = true;
  // The response each message.id is being assembled into (its index in `items`), until a user prompt intervenes.
  // (A new map only when this one holds any: an empty map is a fresh one.)
  private responses = new Map<string, number>();
  private cwd: string | undefined;
  private model: string | undefined;
  private pendingCompaction = false;

  constructor(private readonly tally: WarningTally) {}

  /** Where the reader stands now (`restored` reads on from there without touching this reader). */
  snapshot(): ClaudeCodeItemsSnapshot {
    const responses = [...this.responses].map(([id, index]) => {
      const { content, usage, outcome } = this.items[index] as Response;
      return { id, index, content, usage, outcome };
    });
    return { length: this.items.length, responses, cwd: this.cwd, model: this.model, pendingCompaction: this.pendingCompaction };
  }

  /**
   * A reader where this one stood at `snapshot`: its items up to there from the first response then
   * open (those responses as they were then, copied; the items before are holes).
   */
  restored(snapshot: ClaudeCodeItemsSnapshot): ClaudeCodeItems {
    const reader = new ClaudeCodeItems(this.tally);
    // The items before the first one open then stay as they are: left as holes (the caller reads on from there).
    const from = Math.min(snapshot.length, ...snapshot.responses.map((response) => response.index));
    reader.items.length = from;
    for (let index = from; index < snapshot.length; index++) reader.items.push(this.items[index] as SourceItem);
    for (const { id, index, content, usage, outcome } of snapshot.responses) {
      const { usage: _usage, outcome: _outcome, ...rest } = this.items[index] as Response;
      reader.items[index] = { ...rest, content, ...(usage === undefined ? {} : { usage }), ...(outcome === undefined ? {} : { outcome }) };
      reader.responses.set(id, index);
    }
    reader.cwd = snapshot.cwd;
    reader.model = snapshot.model;
    reader.pendingCompaction = snapshot.pendingCompaction;
    reader.changedFrom = snapshot.length;
    return reader;
  }

  /** The lowest index of `items` a later line may still change (a response being assembled). */
  openFrom(): number {
    let lowest = this.items.length;
    for (const index of this.responses.values()) if (index < lowest) lowest = index;
    return lowest;
  }

  private push(item: SourceItem): void {
    this.items.push(item);
    this.inert = false;
  }

  private reset(): void {
    if (this.responses.size > 0) {
      this.responses = new Map();
      this.inert = false;
    }
  }

  add({ line, value }: Entry): void {
    const { items, tally } = this;
    this.inert = true;
    const key = asString(value.uuid) ?? `L${line}`;
    const time = timeOf(value.timestamp) ?? Number.NaN;
    const lineCwd = asString(value.cwd);
    if (lineCwd !== undefined && lineCwd !== this.cwd) {
      this.cwd = lineCwd;
      this.push({ kind: 'config', key, time, config: { cwd: lineCwd } });
    }
    if (value.type === 'system') {
      if (value.subtype === 'compact_boundary') {
        if (!this.pendingCompaction) this.inert = false;
        this.pendingCompaction = true;
      }
      return;
    }
    const message = asRecord(value.message);
    if (message === undefined) return;
    if (value.type === 'assistant') {
      const id = asString(message.id) ?? key;
      const messageModel = asString(message.model);
      if (messageModel !== undefined && messageModel !== '<synthetic>' && messageModel !== this.model) {
        this.model = messageModel;
        this.push({ kind: 'config', key, time, config: { model: messageModel } });
      }
      // The line's blocks in an array of their length (`map`; a string is one text block), joined
      // to the response's (`concat`): no array grown from empty by `push`, which reserves 17 slots.
      const content =
        typeof message.content === 'string'
          ? [text(message.content)]
          : blocksOf(message.content).map((block) => responseBlock(block, line, tally));
      const index = this.responses.get(id);
      let response: Extract<SourceItem, { kind: 'response' }>;
      if (index === undefined) {
        response = { kind: 'response', key, id, time, content };
        this.responses.set(id, items.length);
        this.push(response);
      } else {
        response = items[index] as Extract<SourceItem, { kind: 'response' }>;
        response.content = response.content.concat(content);
        this.changedFrom = Math.min(this.changedFrom, index);
        this.inert = false;
      }
      const usage = usageOf(message.usage);
      if (usage !== undefined) response.usage = usage;
      if (value.isApiErrorMessage === true) {
        const first = response.content.find((block) => block.type === 'text');
        const outcome: TurnOutcome = { kind: 'error', message: first?.type === 'text' ? first.text : 'API error' };
        response.outcome = outcome;
      }
      return;
    }
    if (value.type !== 'user') return;
    const id = key;
    if (value.isCompactSummary === true || this.pendingCompaction) {
      this.pendingCompaction = false;
      const summary =
        typeof message.content === 'string'
          ? message.content
          : blocksOf(message.content)
              .map((b) => asString(b.text) ?? '')
              .join('\n');
      this.push({ kind: 'compaction', key, id, time, summary });
      this.reset();
      return;
    }
    const meta = value.isMeta === true;
    if (typeof message.content === 'string') {
      this.push({ kind: 'prompt', key, id, time, content: [text(message.content)], opensTurn: !meta });
      if (message.content.startsWith(INTERRUPTED)) this.push({ kind: 'outcome', key, time, outcome: { kind: 'cancelled' } });
      if (!meta) this.reset();
      return;
    }
    const extra: ContentBlock[] = [];
    let hasResult = false;
    const blocks = blocksOf(message.content);
    for (let index = 0; index < blocks.length; index++) {
      const block = blocks[index] as Record<string, unknown>;
      if (block.type === 'tool_result') {
        hasResult = true;
        this.push({
          kind: 'result',
          key,
          id: `${id}#${index}`,
          time,
          callId: String(block.tool_use_id),
          content: resultContent(block.content, line, tally),
          isError: block.is_error === true,
        });
      } else if (block.type === 'text' && typeof block.text === 'string') extra.push(text(block.text));
      else extra.push(placeholder(block, line, tally));
    }
    if (extra.length > 0) {
      const interrupted = extra.some((block) => block.type === 'text' && block.text.startsWith(INTERRUPTED));
      this.push({ kind: 'prompt', key, id, time, content: extra, opensTurn: !meta && !hasResult && !interrupted });
      if (interrupted) this.push({ kind: 'outcome', key, time, outcome: { kind: 'cancelled' } });
      if (!meta && !hasResult && !interrupted) this.reset();
    }
  }
}
