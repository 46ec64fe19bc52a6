/**
 * @module claude-stream-lines
 * `--output-format stream-json` as Claude Code prints it: a `system`/`init` line, an `assistant`
 * line per model response, a `user` line per tool result, the `result` object last; every line
 * carries `session_id`. Built from the events dsh persists, as they are appended.
 */
import { randomUUID } from 'node:crypto';
import type { AssistantMessage, ContentBlock, SessionEvent, ToolResultMessage } from 'dsh-codec';
import type { QueryStart } from 'dsh-host/core';

/** One content block of an assistant line, as the Messages API spells it. */
type ClaudeBlock =
  { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown } | { type: 'thinking'; thinking: string };

function parseArguments(text: string): unknown {
  try {
    return text.trim() === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    // The model sent arguments that are not JSON; the tool refused them. Show them as they came.
    return text;
  }
}

function blockOf(block: ContentBlock): ClaudeBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'tool-call') return { type: 'tool_use', id: block.id, name: block.name, input: parseArguments(block.arguments) };
  return { type: 'thinking', thinking: block.text };
}

function textOf(content: readonly ContentBlock[]): string {
  return content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** The lines of one print-mode run, written by `write` one JSON object per line. */
export class ClaudeStreamLines {
  readonly #write: (line: string) => void;
  #sessionId: string | undefined;
  #model = '';

  constructor(write: (line: string) => void) {
    this.#write = write;
  }

  #emit(value: Record<string, unknown>): void {
    this.#write(`${JSON.stringify(value)}\n`);
  }

  /** The `system`/`init` line; from now on, events of this session become lines. */
  init(start: QueryStart): void {
    this.#sessionId = start.sessionId;
    this.#model = start.model;
    this.#emit({
      type: 'system',
      subtype: 'init',
      session_id: start.sessionId,
      cwd: start.cwd ?? null,
      model: start.model,
      tools: start.tools,
      permissionMode: 'default',
      uuid: randomUUID(),
    });
  }

  /** An appended event: `assistant/message` and `tool/result` of this run's session become lines. */
  event(event: SessionEvent, sessionId: string): void {
    if (this.#sessionId === undefined || sessionId !== this.#sessionId) return;
    if (event.type === 'assistant/message') {
      const message = (event.data as { message: AssistantMessage; usage?: unknown }).message;
      this.#emit({
        type: 'assistant',
        message: { id: message.id, type: 'message', role: 'assistant', model: this.#model, content: message.content.map(blockOf) },
        parent_tool_use_id: null,
        session_id: sessionId,
        uuid: randomUUID(),
      });
    } else if (event.type === 'tool/result') {
      const message = (event.data as { message: ToolResultMessage }).message;
      this.#emit({
        type: 'user',
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: message.callId, content: textOf(message.content), is_error: message.isError }],
        },
        parent_tool_use_id: null,
        session_id: sessionId,
        uuid: randomUUID(),
      });
    }
  }

  /** The result object, last. */
  result(result: Record<string, unknown>): void {
    this.#emit(result);
  }
}
