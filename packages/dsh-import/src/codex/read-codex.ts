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

/** Reads a Codex rollout into one item stream. */
export function readCodex(lines: readonly SourceLine[]): ReadTranscript {
  const tally = new WarningTally();
  const items: SourceItem[] = [];
  let sessionId: string | undefined;
  let cwd: string | undefined;
  let createdAt: number | undefined;
  let response: Extract<SourceItem, { kind: 'response' }> | undefined;
  // Newer rollouts bracket each turn with task_started … task_complete events.
  let inTask = false;
  let responsesInTask = 0;
  const links: SourceLinks = {};
  const firstOrdinal = lines[0]?.value.ordinal;
  if (typeof firstOrdinal === 'number' && Number.isSafeInteger(firstOrdinal) && firstOrdinal > 0) links.firstOrdinal = firstOrdinal;

  const responseFor = (key: string, time: number): Extract<SourceItem, { kind: 'response' }> => {
    if (response === undefined) {
      responsesInTask++;
      response = { kind: 'response', key, id: key, time, content: [] };
      items.push(response);
    }
    return response;
  };

  const item = (payload: Record<string, unknown>, key: string, time: number, line: number): void => {
    const kind = asString(payload.type) ?? '';
    if (kind === 'message') {
      const role = asString(payload.role);
      const texts = contentText(payload.content);
      if (role === 'assistant') {
        const target = responseFor(key, time);
        for (const t of texts) target.content.push(text(t));
      } else if (role === 'user') {
        response = undefined;
        // Inside a task (turn) that already had a response, user messages are injected context.
        items.push({ kind: 'prompt', key, id: key, time, content: texts.map(text), opensTurn: !(inTask && responsesInTask > 0) });
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
      responseFor(key, time).content.push(reasoning(texts.join('\n\n'), providerData));
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
      responseFor(key, time).content.push({ type: 'tool-call', id: callId, name, arguments: args });
      return;
    }
    if (kind === 'web_search_call') {
      // Run by the provider, with no call id and no output item: kept as text in the response.
      const action = asRecord(payload.action);
      tally.add('web_search_call items kept as text', line);
      responseFor(key, time).content.push(text(`[web search: ${asString(action?.query) ?? JSON.stringify(action ?? null)}]`));
      return;
    }
    if (OUTPUT_KINDS.has(kind)) {
      response = undefined;
      const callId = asString(payload.call_id) ?? '';
      items.push({ kind: 'result', key, id: key, time, callId, ...outputOf(payload) });
      return;
    }
    tally.add(`response items of unknown type "${kind}" skipped`, line);
  };

  for (const { line, value } of lines) {
    const key = `L${line}`;
    const time = timeOf(value.timestamp) ?? Number.NaN;
    const type = asString(value.type);
    const payload = asRecord(value.payload);
    if (type === 'session_meta' && payload !== undefined) {
      if (sessionId === undefined) {
        sessionId = asString(payload.id);
        Object.assign(links, metaLinks(payload));
      }
      createdAt ??= timeOf(payload.timestamp) ?? timeOf(value.timestamp);
      const metaCwd = asString(payload.cwd);
      if (metaCwd !== undefined) {
        cwd ??= metaCwd;
        items.push({ kind: 'config', key, time, config: { cwd: metaCwd } });
      }
      continue;
    }
    if (type === 'turn_context' && payload !== undefined) {
      const config: { cwd?: string; model?: string } = {};
      const contextCwd = asString(payload.cwd);
      const model = asString(payload.model);
      if (contextCwd !== undefined) config.cwd = contextCwd;
      if (model !== undefined) config.model = model;
      items.push({ kind: 'config', key, time, config });
      continue;
    }
    if (type === 'response_item' && payload !== undefined) {
      item(payload, key, time, line);
      continue;
    }
    if (type === 'compacted' && payload !== undefined) {
      response = undefined;
      items.push({ kind: 'compaction', key, id: key, time, summary: asString(payload.message) ?? '' });
      continue;
    }
    if (type === 'event_msg' && payload !== undefined) {
      if (payload.type === 'task_started') {
        inTask = true;
        responsesInTask = 0;
      } else if (payload.type === 'task_complete') inTask = false;
      if (payload.type === 'turn_aborted') items.push({ kind: 'outcome', key, time, outcome: { kind: 'cancelled' } });
      else if (payload.type === 'error')
        items.push({ kind: 'outcome', key, time, outcome: { kind: 'error', message: asString(payload.message) ?? 'error' } });
      continue;
    }
    // The older layout: a bare header, then items without an envelope.
    if (type === undefined && line === lines[0]?.line && typeof value.id === 'string') {
      sessionId ??= value.id;
      createdAt ??= timeOf(value.timestamp);
      continue;
    }
    if (value.record_type !== undefined || type === 'world_state' || type === 'token_usage_record') continue;
    if (
      type !== undefined &&
      !QUIET_TYPES.has(type) &&
      (type === 'message' || type === 'reasoning' || CALL_KINDS.has(type) || OUTPUT_KINDS.has(type) || type === 'web_search_call')
    ) {
      item(value, key, time, line);
      continue;
    }
    tally.add(`lines of unknown type "${type ?? 'none'}" skipped`, line);
  }
  return { sessionId, links, cwd, createdAt, lines: [items], warnings: tally.messages(), effectOf: codexEffectOf };
}
