/**
 * One writer per tool for `exportNativeTranscript`: dsh messages → that tool's entries. Call
 * arguments are the model's raw JSON text; the tools store them as objects, so arguments that are
 * not a JSON object are kept as `{}` — the one case where the import does not get the text back.
 */
import type { ContentBlock } from 'dsh-codec';
import { ANTHROPIC_WIRE, OPENAI_RESPONSES_WIRE } from '../read-transcript.js';
import type { ExportContext, HistoryMessage } from './export-native-transcript.js';
import { textOf } from './export-native-transcript.js';
import { derivedUuid } from './native-line.js';

type Entry = Record<string, unknown>;

function argumentsObject(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function providerField(block: ContentBlock, key: string): string | undefined {
  if (block.type !== 'reasoning') return undefined;
  const value = block.providerData?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** Claude Code: one line per message, chained by `parentUuid`; results as `tool_result` user lines. */
export function writeClaudeCodeLines(messages: readonly HistoryMessage[], context: ExportContext): Entry[] {
  const entries: Entry[] = [];
  let parent: string | null = null;
  const common = {
    isSidechain: false,
    userType: 'external',
    ...(context.cwd === undefined ? {} : { cwd: context.cwd }),
    sessionId: context.sessionId,
  };
  messages.forEach((message, index) => {
    const uuid = derivedUuid(context.sessionId, 'export', String(index));
    const base = { parentUuid: parent, ...common, uuid, timestamp: context.time(index) };
    if (message.role === 'tool') {
      entries.push({
        ...base,
        type: 'user',
        message: {
          role: 'user',
          content: [{ tool_use_id: message.callId, type: 'tool_result', content: textOf(message.content), is_error: message.isError }],
        },
      });
    } else if (message.role === 'user') {
      const only = message.content.length === 1 && message.content[0]?.type === 'text';
      entries.push({
        ...base,
        type: 'user',
        message: {
          role: 'user',
          content: only
            ? textOf(message.content)
            : message.content.map((block) => ({ type: 'text', text: block.type === 'text' ? block.text : '' })),
        },
      });
    } else {
      const content: Entry[] = [];
      for (const block of message.content) {
        if (block.type === 'text') content.push({ type: 'text', text: block.text });
        else if (block.type === 'tool-call')
          content.push({ type: 'tool_use', id: block.id, name: block.name, input: argumentsObject(block.arguments) });
        else if (block.providerData?.wire === ANTHROPIC_WIRE && providerField(block, 'signature') !== undefined)
          content.push({ type: 'thinking', thinking: block.text, signature: providerField(block, 'signature') });
        else if (block.providerData?.wire === ANTHROPIC_WIRE && providerField(block, 'redactedData') !== undefined)
          content.push({ type: 'redacted_thinking', data: providerField(block, 'redactedData') });
        // Unsigned reasoning cannot go back to the Messages API: Claude Code's format has no place for it.
      }
      const calls = content.some((block) => block.type === 'tool_use');
      entries.push({
        ...base,
        type: 'assistant',
        message: {
          id: `msg_${uuid.replaceAll('-', '')}`,
          type: 'message',
          role: 'assistant',
          model: context.model ?? 'dsh-export',
          content,
          stop_reason: calls ? 'tool_use' : 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      });
    }
    parent = uuid;
  });
  if (context.title !== undefined) entries.push({ type: 'custom-title', customTitle: context.title, sessionId: context.sessionId });
  return entries;
}

/** pi: a version-3 header, then `message` entries chained by `parentId`. */
export function writePiLines(messages: readonly HistoryMessage[], context: ExportContext): Entry[] {
  const entries: Entry[] = [{ type: 'session', version: 3, id: context.sessionId, timestamp: context.time(0), cwd: context.cwd ?? '/' }];
  let parent: string | null = null;
  messages.forEach((message, index) => {
    const id = derivedUuid(context.sessionId, 'export', String(index)).slice(0, 8);
    const timestamp = context.now + index;
    let body: Entry;
    if (message.role === 'tool') {
      body = {
        role: 'toolResult',
        toolCallId: message.callId,
        toolName: context.callNames.get(message.callId) ?? 'unknown',
        content: [{ type: 'text', text: textOf(message.content) }],
        isError: message.isError,
        timestamp,
      };
    } else if (message.role === 'user') {
      body = {
        role: 'user',
        content: message.content.map((block) => ({ type: 'text', text: block.type === 'text' ? block.text : '' })),
        timestamp,
      };
    } else {
      const content: Entry[] = [];
      for (const block of message.content) {
        if (block.type === 'text') content.push({ type: 'text', text: block.text });
        else if (block.type === 'tool-call')
          content.push({ type: 'toolCall', id: block.id, name: block.name, arguments: argumentsObject(block.arguments) });
        else {
          const signature = providerField(block, 'signature') ?? providerField(block, 'redactedData');
          content.push({
            type: 'thinking',
            thinking: block.text,
            ...(signature === undefined ? {} : { thinkingSignature: signature }),
            ...(providerField(block, 'redactedData') === undefined ? {} : { redacted: true }),
          });
        }
      }
      const calls = content.some((block) => block.type === 'toolCall');
      const usage = {
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      };
      body = {
        role: 'assistant',
        content,
        api: 'anthropic-messages',
        provider: 'dsh',
        model: context.model ?? 'dsh-export',
        usage,
        stopReason: calls ? 'toolUse' : 'stop',
        timestamp,
      };
    }
    entries.push({ type: 'message', id, parentId: parent, timestamp: context.time(index), message: body });
    parent = id;
  });
  return entries;
}

/** Codex: `session_meta`, then one `response_item` per message part, numbered by `ordinal`. */
export function writeCodexLines(messages: readonly HistoryMessage[], context: ExportContext): Entry[] {
  const items: Entry[] = [];
  for (const message of messages) {
    if (message.role === 'tool') items.push({ type: 'function_call_output', call_id: message.callId, output: textOf(message.content) });
    else if (message.role === 'user')
      items.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: textOf(message.content) }] });
    else {
      const first = items.length;
      for (const block of message.content) {
        if (block.type === 'reasoning' && block.providerData?.wire === OPENAI_RESPONSES_WIRE) {
          const encrypted = providerField(block, 'encryptedContent');
          items.push({
            type: 'reasoning',
            summary: block.text === '' ? [] : [{ type: 'summary_text', text: block.text }],
            ...(encrypted === undefined ? {} : { encrypted_content: encrypted }),
          });
        } else if (block.type === 'text')
          items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: block.text }] });
        else if (block.type === 'tool-call')
          items.push({ type: 'function_call', name: block.name, arguments: block.arguments, call_id: block.id });
      }
      // A response with nothing Codex keeps (an empty or reasoning-only answer) stays a turn of its own.
      if (items.length === first) items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '' }] });
    }
  }
  const meta = {
    id: context.sessionId,
    timestamp: context.time(0),
    cwd: context.cwd ?? '/',
    originator: 'dsh_export',
    cli_version: '0.169.0',
    source: 'exec',
    ...(context.model === undefined ? {} : { model: context.model }),
  };
  return [
    { timestamp: context.time(0), ordinal: 0, type: 'session_meta', payload: meta },
    ...items.map((payload, index) => ({ timestamp: context.time(index + 1), ordinal: index + 1, type: 'response_item', payload })),
  ];
}
