/**
 * OpenAI Codex rollout files (`rollout-*.jsonl`). Newer layout: `{timestamp, type, payload}` lines —
 * `session_meta`, `turn_context`, `response_item`, `event_msg`, `compacted`. Older layout: a bare
 * header `{id, timestamp, instructions?}`, then response items directly and `{record_type: "state"}`.
 * A rollout is linear: one session, no branches.
 */
import type { ContentBlock, JsonObject } from 'dsh-codec';
import type { SourceLine } from '../read-lines.js';
import {
  argumentsText,
  asRecord,
  asString,
  OPENAI_RESPONSES_WIRE,
  reasoning,
  text,
  type ReadTranscript,
  type SourceLinks,
} from '../read-transcript.js';
import { timeOf, WarningTally, type SourceItem } from '../source-item.js';
import { codexEffectOf } from './codex-effects.js';

/** Response item kinds the model produces (one response = a run of these). */
const CALL_KINDS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call']);
const OUTPUT_KINDS = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output', 'tool_search_output']);
/** Envelope and event types that hold nothing a dsh session needs (events repeat the response items). */
const QUIET_TYPES = new Set([
  'event_msg',
  'turn_context',
  'session_meta',
  'compacted',
  'response_item',
  'world_state',
  'token_usage_record',
]);

function contentText(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return [];
  return value.flatMap((part) => {
    const record = asRecord(part);
    const t = asString(record?.text);
    return t === undefined ? [] : [t];
  });
}

function outputOf(payload: Record<string, unknown>): { content: ContentBlock[]; isError: boolean } {
  const output = payload.output;
  if (typeof output === 'string') return { content: [text(output)], isError: false };
  if (Array.isArray(output)) return { content: contentText(output).map(text), isError: false };
  const record = asRecord(output);
  if (record !== undefined && typeof record.content === 'string')
    return { content: [text(record.content)], isError: record.success === false };
  if (payload.type === 'tool_search_output') return { content: [text(JSON.stringify(payload.tools ?? []))], isError: false };
  return { content: [text(JSON.stringify(output ?? null))], isError: false };
}

/**
 * The links `session_meta` states: a subagent thread's parent (`source.subagent.thread_spawn`), a
 * fork's history base (`history_base: { thread_id, end_ordinal_exclusive, end_byte_offset }`, from 0.154
 * on; the fork rollout then holds only its own records).
 */
function metaLinks(payload: Record<string, unknown>): SourceLinks {
  const links: SourceLinks = {};
  const spawn = asRecord(asRecord(asRecord(payload.source)?.subagent)?.thread_spawn);
  const parent =
    asString(spawn?.parent_thread_id) ?? (payload.thread_source === 'subagent' ? asString(payload.parent_thread_id) : undefined);
  if (parent !== undefined) {
    links.mainSourceId = parent;
    const nickname = asString(spawn?.agent_nickname) ?? asString(payload.agent_nickname);
    if (nickname !== undefined) links.agentId = nickname;
  }
  const base = asRecord(payload.history_base);
  const threadId = asString(base?.thread_id);
  const end = base?.end_ordinal_exclusive;
  if (threadId !== undefined && typeof end === 'number' && Number.isSafeInteger(end) && end >= 0)
    links.historyBase = { threadId, endOrdinalExclusive: end };
  return links;
}

/**
 * A rollout's item stream, line by line: `add` each line in order; `items` grows, and a later line
 * of the response being assembled extends that item in place (`changedFrom` is then its index).
 * The import reads every line; `dsh show --entries` reads every prefix.
 */
export class CodexItems {
  readonly items: SourceItem[] = [];
  /** The lowest index of `items` added or changed since the caller last set it to `items.length`. */
  changedFrom = 0;
  sessionId: string | undefined;
  cwd: string | undefined;
  createdAt: number | undefined;
  readonly links: SourceLinks = {};
  private response: number | undefined;
  // Newer rollouts bracket each turn with task_started … task_complete events.
  private inTask = false;
  private responsesInTask = 0;

  /** `first`: the rollout's first line (its number and object). */
  constructor(
    private readonly first: SourceLine | undefined,
    private readonly tally: WarningTally,
  ) {
    const firstOrdinal = first?.value.ordinal;
    if (typeof firstOrdinal === 'number' && Number.isSafeInteger(firstOrdinal) && firstOrdinal > 0) this.links.firstOrdinal = firstOrdinal;
  }

  /** The lowest index of `items` a later line may still change (the response being assembled). */
  openFrom(): number {
    return this.response ?? this.items.length;
  }

  private responseFor(key: string, time: number): Extract<SourceItem, { kind: 'response' }> {
    if (this.response === undefined) {
      this.responsesInTask++;
      this.response = this.items.length;
      this.items.push({ kind: 'response', key, id: key, time, content: [] });
    } else this.changedFrom = Math.min(this.changedFrom, this.response);
    return this.items[this.response] as Extract<SourceItem, { kind: 'response' }>;
  }

  private item(payload: Record<string, unknown>, key: string, time: number, line: number): void {
    const { items, tally } = this;
    const kind = asString(payload.type) ?? '';
    if (kind === 'message') {
      const role = asString(payload.role);
      const texts = contentText(payload.content);
      if (role === 'assistant') {
        const target = this.responseFor(key, time);
        for (const t of texts) target.content.push(text(t));
      } else if (role === 'user') {
        this.response = undefined;
        // Inside a task (turn) that already had a response, user messages are injected context.
        items.push({ kind: 'prompt', key, id: key, time, content: texts.map(text), opensTurn: !(this.inTask && this.responsesInTask > 0) });
      } else tally.add(`${role ?? 'unknown'}-role messages (tool instructions) left out`, line);
      return;
    }
    if (kind === 'reasoning') {
      // Part of the response that follows: its summary as the text (the full text when only that
      // was kept), `encrypted_content` (what the Responses API takes back) in providerData.
      const summary = contentText(payload.summary);
      const texts = summary.length > 0 ? summary : contentText(payload.content);
      const providerData: JsonObject = { wire: OPENAI_RESPONSES_WIRE };
      const encrypted = asString(payload.encrypted_content);
      const id = asString(payload.id);
      if (encrypted !== undefined) providerData.encryptedContent = encrypted;
      if (id !== undefined) providerData.id = id;
      this.responseFor(key, time).content.push(reasoning(texts.join('\n\n'), providerData));
      return;
    }
    if (CALL_KINDS.has(kind)) {
      const callId = asString(payload.call_id) ?? asString(payload.id) ?? key;
      const name =
        kind === 'local_shell_call' ? 'local_shell' : kind === 'tool_search_call' ? 'tool_search' : (asString(payload.name) ?? 'unknown');
      const args =
        kind === 'custom_tool_call'
          ? (asString(payload.input) ?? '')
          : kind === 'local_shell_call'
            ? argumentsText(payload.action)
            : argumentsText(payload.arguments);
      this.responseFor(key, time).content.push({ type: 'tool-call', id: callId, name, arguments: args });
      return;
    }
    if (kind === 'web_search_call') {
      // Run by the provider, with no call id and no output item: kept as text in the response.
      const action = asRecord(payload.action);
      tally.add('web_search_call items kept as text', line);
      this.responseFor(key, time).content.push(text(`[web search: ${asString(action?.query) ?? JSON.stringify(action ?? null)}]`));
      return;
    }
    if (OUTPUT_KINDS.has(kind)) {
      this.response = undefined;
      const callId = asString(payload.call_id) ?? '';
      items.push({ kind: 'result', key, id: key, time, callId, ...outputOf(payload) });
      return;
    }
    tally.add(`response items of unknown type "${kind}" skipped`, line);
  }

  add({ line, value }: SourceLine): void {
    const { items } = this;
    const key = `L${line}`;
    const time = timeOf(value.timestamp) ?? Number.NaN;
    const type = asString(value.type);
    const payload = asRecord(value.payload);
    if (type === 'session_meta' && payload !== undefined) {
      if (this.sessionId === undefined) {
        this.sessionId = asString(payload.id);
        Object.assign(this.links, metaLinks(payload));
      }
      this.createdAt ??= timeOf(payload.timestamp) ?? timeOf(value.timestamp);
      const metaCwd = asString(payload.cwd);
      if (metaCwd !== undefined) {
        this.cwd ??= metaCwd;
        items.push({ kind: 'config', key, time, config: { cwd: metaCwd } });
      }
      return;
    }
    if (type === 'turn_context' && payload !== undefined) {
      const config: { cwd?: string; model?: string } = {};
      const contextCwd = asString(payload.cwd);
      const model = asString(payload.model);
      if (contextCwd !== undefined) config.cwd = contextCwd;
      if (model !== undefined) config.model = model;
      items.push({ kind: 'config', key, time, config });
      return;
    }
    if (type === 'response_item' && payload !== undefined) {
      this.item(payload, key, time, line);
      return;
    }
    if (type === 'compacted' && payload !== undefined) {
      this.response = undefined;
      items.push({ kind: 'compaction', key, id: key, time, summary: asString(payload.message) ?? '' });
      return;
    }
    if (type === 'event_msg' && payload !== undefined) {
      if (payload.type === 'task_started') {
        this.inTask = true;
        this.responsesInTask = 0;
      } else if (payload.type === 'task_complete') this.inTask = false;
      if (payload.type === 'turn_aborted') items.push({ kind: 'outcome', key, time, outcome: { kind: 'cancelled' } });
      else if (payload.type === 'error')
        items.push({ kind: 'outcome', key, time, outcome: { kind: 'error', message: asString(payload.message) ?? 'error' } });
      return;
    }
    // The older layout: a bare header, then items without an envelope.
    if (type === undefined && line === this.first?.line && typeof value.id === 'string') {
      this.sessionId ??= value.id;
      this.createdAt ??= timeOf(value.timestamp);
      return;
    }
    if (value.record_type !== undefined || type === 'world_state' || type === 'token_usage_record') return;
    if (
      type !== undefined &&
      !QUIET_TYPES.has(type) &&
      (type === 'message' || type === 'reasoning' || CALL_KINDS.has(type) || OUTPUT_KINDS.has(type) || type === 'web_search_call')
    ) {
      this.item(value, key, time, line);
      return;
    }
    this.tally.add(`lines of unknown type "${type ?? 'none'}" skipped`, line);
  }
}

/** Reads a Codex rollout into one item stream. */
export function readCodex(lines: readonly SourceLine[]): ReadTranscript {
  const tally = new WarningTally();
  const reader = new CodexItems(lines[0], tally);
  for (const line of lines) reader.add(line);
  const { sessionId, links, cwd, createdAt, items } = reader;
  return { sessionId, links, cwd, createdAt, lines: [items], warnings: tally.messages(), effectOf: codexEffectOf };
}
