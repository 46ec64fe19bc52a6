/**
 * Test helpers read straight from source lines, independently of the readers under test: every
 * tool result text a transcript records, by call id, and the facts of imported events.
 */
import type { SessionEvent } from 'dsh-codec';

type Json = Record<string, unknown>;

function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) return [];
  return value.flatMap((block: Json) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []));
}

function parsedLines(text: string): Json[] {
  return text.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as Json];
    } catch {
      return [];
    }
  });
}

/** Call id → the result texts the source recorded for it (Claude Code, Codex or pi). */
export function sourceResults(text: string): Map<string, string[]> {
  const results = new Map<string, string[]>();
  for (const line of parsedLines(text)) {
    const message = line.message as Json | undefined;
    if (line.type === 'user' && Array.isArray(message?.content)) {
      for (const block of message.content as Json[]) {
        if (block.type === 'tool_result') results.set(String(block.tool_use_id), texts(block.content));
      }
    }
    if (line.type === 'message' && message?.role === 'toolResult') results.set(String(message.toolCallId), texts(message.content));
    const payload = (line.payload ?? line) as Json;
    if (typeof payload.type === 'string' && payload.type.endsWith('_output') && typeof payload.call_id === 'string') {
      const output = payload.output;
      const recorded =
        typeof output === 'string'
          ? [output]
          : output === undefined
            ? [JSON.stringify(payload.tools ?? [])]
            : [String((output as Json).content)];
      results.set(payload.call_id, recorded);
    }
  }
  return results;
}

/** The `tool/result` events of a log as call id → result texts. */
export function importedResults(events: readonly SessionEvent[]): Map<string, string[]> {
  const results = new Map<string, string[]>();
  for (const event of events) {
    if (event.type !== 'tool/result') continue;
    const message = (event.data as { message: { callId: string; content: { type: string; text?: string }[] } }).message;
    results.set(
      message.callId,
      message.content.map((block) => block.text ?? ''),
    );
  }
  return results;
}

/** Every `tool/call` of a log with its name, arguments and effect. */
export function importedCalls(
  events: readonly SessionEvent[],
): { seq: number; callId: string; name: string; arguments: string; effect: string }[] {
  return events
    .filter((event) => event.type === 'tool/call')
    .map((event) => ({ seq: event.seq, ...(event.data as { callId: string; name: string; arguments: string; effect: string }) }));
}
