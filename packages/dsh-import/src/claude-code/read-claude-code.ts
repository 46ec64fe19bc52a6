/**
 * Claude Code session files (`~/.claude/projects/<dir>/<session>.jsonl`): a `uuid`/`parentUuid` tree of
 * user, assistant, system and progress lines, plus untreed lines (summary, titles, snapshots, queue
 * operations). One API response is split over several assistant lines sharing `message.id`.
 */
import type { ContentBlock, JsonObject } from 'dsh-codec';
import type { SourceLine } from '../read-lines.js';
import {
  ANTHROPIC_WIRE,
  argumentsText,
  asRecord,
  asString,
  reasoning,
  text,
  type ReadTranscript,
  type SourceLinks,
} from '../read-transcript.js';
import { timeOf, WarningTally, type SourceItem, type TurnOutcome } from '../source-item.js';
import { linesOfTree } from '../transcript-tree.js';
import { CLAUDE_CODE_QUIET_TYPES, CLAUDE_CODE_TITLE_TYPES } from './claude-code-line-types.js';
import { claudeCodeTree, type ClaudeCodeEntry } from './claude-code-tree.js';
import { claudeCodeEffectOf } from './claude-code-effects.js';

const INTERRUPTED = '[Request interrupted by user';

type Entry = ClaudeCodeEntry;

function blocksOf(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  const items = value as unknown[];
  // Content arrays hold objects only, as Claude Code writes them: the array itself, not a copy.
  for (const item of items)
    if (asRecord(item) === undefined) return items.map(asRecord).filter((block): block is Record<string, unknown> => block !== undefined);
  return items as Record<string, unknown>[];
}

/** A non-text block as a placeholder text, counted in the warnings. */
function placeholder(block: Record<string, unknown>, line: number, tally: WarningTally): ContentBlock {
  const type = asString(block.type) ?? 'unknown';
  tally.add(`${type} blocks kept as text placeholders`, line);
  if (type === 'image') {
    const source = asRecord(block.source);
    const mediaType = asString(source?.media_type);
    return text(`[image${mediaType === undefined ? '' : `: ${mediaType}`}]`);
  }
  return text(`[${type} block]`);
}

function resultContent(value: unknown, line: number, tally: WarningTally): ContentBlock[] {
  if (typeof value === 'string') return [text(value)];
  return blocksOf(value).map((block) =>
    block.type === 'text' && typeof block.text === 'string' ? text(block.text) : placeholder(block, line, tally),
  );
}

const USAGE_FIELDS: readonly (readonly [string, string])[] = [
  ['input_tokens', 'inputTokens'],
  ['output_tokens', 'outputTokens'],
  ['cache_read_input_tokens', 'cacheReadTokens'],
  ['cache_creation_input_tokens', 'cacheWriteTokens'],
];

function usageOf(value: unknown): JsonObject | undefined {
  const usage = asRecord(value);
  if (usage === undefined) return undefined;
  let out: JsonObject | undefined;
  for (const [from, to] of USAGE_FIELDS) {
    const n = usage[from];
    if (typeof n === 'number' && Number.isFinite(n)) (out ??= {})[to] = n;
  }
  return out;
}

/** A response block in the current format. */
function responseBlock(block: Record<string, unknown>, line: number, tally: WarningTally): ContentBlock {
  if (block.type === 'text' && typeof block.text === 'string') return text(block.text);
  if (block.type === 'tool_use')
    return { type: 'tool-call', id: String(block.id), name: String(block.name), arguments: argumentsText(block.input) };
  if (block.type === 'thinking' && typeof block.thinking === 'string') {
    // The signature is what the Messages API verifies when the block comes back: kept verbatim.
    const signature = asString(block.signature);
    return reasoning(block.thinking, signature === undefined ? undefined : { wire: ANTHROPIC_WIRE, signature });
  }
  if (block.type === 'redacted_thinking' && typeof block.data === 'string')
    return reasoning('', { wire: ANTHROPIC_WIRE, redactedData: block.data });
  return placeholder(block, line, tally);
}

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

/** The items of one line of the tree (its entries in file order). */
function itemsOf(entries: readonly Entry[], tally: WarningTally): SourceItem[] {
  const reader = new ClaudeCodeItems(tally);
  for (const entry of entries) reader.add(entry);
  return reader.items;
}

/** What the entries say about the session, read in chain order: `add` each entry. */
export class ClaudeCodeFacts {
  sessionId: string | undefined;
  cwd: string | undefined;
  createdAt: number | undefined;
  /** Task/Agent calls whose result names the subagent they ran (`toolUseResult.agentId`). */
  readonly spawned: Record<string, string> = {};

  add(value: Record<string, unknown>): void {
    this.sessionId ??= asString(value.sessionId);
    this.cwd ??= asString(value.cwd);
    const spawnedAgent = asString(asRecord(value.toolUseResult)?.agentId);
    if (spawnedAgent !== undefined) {
      const callId = blocksOf(asRecord(value.message)?.content).find((block) => block.type === 'tool_result')?.tool_use_id;
      if (typeof callId === 'string') this.spawned[callId] = spawnedAgent;
    }
    // A line written before the one it follows does not date the session.
    this.createdAt ??= timeOf(value.timestamp);
  }

  /** The links these facts and a subagent's own id (`agentId`, of an all-sidechain file) make. */
  links(agentId: string | undefined): SourceLinks {
    const { sessionId, spawned } = this;
    return {
      ...(agentId === undefined ? {} : { agentId, ...(sessionId === undefined ? {} : { mainSourceId: sessionId }) }),
      ...(Object.keys(spawned).length === 0 ? {} : { spawned }),
    };
  }
}

/** Reads a Claude Code transcript: the main line and every branch, as item streams. */
export function readClaudeCode(lines: readonly SourceLine[]): ReadTranscript {
  const tally = new WarningTally();
  const warnings: string[] = [];
  const titles: { title: string; rank: number }[] = [];
  for (const { value } of lines) {
    const type = asString(value.type) ?? '';
    if (!CLAUDE_CODE_TITLE_TYPES.has(type)) continue;
    const title = asString(value.customTitle) ?? asString(value.aiTitle) ?? asString(value.summary) ?? asString(value.title);
    if (title !== undefined) titles.push({ title, rank: type === 'custom-title' ? 2 : type === 'ai-title' ? 1 : 0 });
  }
  const { entries, nodes, absorbs, allSidechain } = claudeCodeTree(lines, CLAUDE_CODE_QUIET_TYPES, tally);
  // In chain order.
  const facts = new ClaudeCodeFacts();
  for (const node of nodes) facts.add((entries.get(node.key) as Entry).value);
  const { sessionId, cwd, createdAt } = facts;
  const lineKeys = linesOfTree(nodes, absorbs);
  const best = titles.reduce<{ title: string; rank: number } | undefined>(
    (a, b) => (a === undefined || b.rank >= a.rank ? b : a),
    undefined,
  );
  const itemLines = lineKeys.map((keys) => {
    const items = itemsOf(
      keys.map((key) => entries.get(key) as Entry),
      tally,
    );
    // `concat`: one array of the joined length (a spread grows it item by item).
    return best === undefined
      ? items
      : [{ kind: 'title' as const, key: 'title', time: createdAt ?? 0, title: best.title } as SourceItem].concat(items);
  });
  warnings.push(...tally.messages());
  const agentId = allSidechain ? subagentIdOf(lines) : undefined;
  return { sessionId, links: facts.links(agentId), cwd, createdAt, lines: itemLines, warnings, effectOf: claudeCodeEffectOf };
}

/** A subagent file's own id: the `agentId` of its first entry that has one. */
export function subagentIdOf(lines: readonly SourceLine[]): string | undefined {
  return asString(lines.find((l) => typeof l.value.uuid === 'string' && typeof l.value.agentId === 'string')?.value.agentId);
}
