/**
 * Readers of the model requests the fake server recorded, for the interop tests: the tool calls and
 * the results answering them, in an Anthropic Messages request (Claude Code, pi, the Agent SDK)
 * and in an OpenAI Responses request (Codex).
 */
import { expect } from 'vitest';

/** One content block of a Messages request, or one input item of a Responses request. */
export type Block = Record<string, unknown>;

/** A result's text, whatever shape the wire gives it (a string, or text parts joined). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return (content as { text?: string }[]).map((part) => part.text ?? '').join('');
  return content === undefined ? '' : JSON.stringify(content);
}

type Message = { role: string; content: string | Block[] };

function messagesOf(body: Record<string, unknown> | undefined): Message[] {
  return (body?.messages ?? []) as Message[];
}

/** Every content block of every message of a Messages request (string content as one text block). */
export function messageBlocks(body: Record<string, unknown> | undefined): Block[] {
  return messagesOf(body).flatMap((message) =>
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content,
  );
}

/** The tool_result blocks answering `callId` anywhere in a Messages request. */
export function anthropicResults(body: Record<string, unknown> | undefined, callId: string): Block[] {
  return messageBlocks(body).filter((block) => block.type === 'tool_result' && block.tool_use_id === callId);
}

/** The tool_result blocks answering `callId` in the user message right after the one holding its tool_use. */
export function anthropicResultsAfter(body: Record<string, unknown> | undefined, callId: string): Block[] {
  const messages = messagesOf(body);
  const at = messages.findIndex(
    (message) => Array.isArray(message.content) && message.content.some((block) => block.type === 'tool_use' && block.id === callId),
  );
  expect(at, 'the request carries the inherited tool_use').toBeGreaterThanOrEqual(0);
  const next = messages[at + 1];
  expect(next?.role).toBe('user');
  return (Array.isArray(next?.content) ? next.content : []).filter((block) => block.type === 'tool_result' && block.tool_use_id === callId);
}

/** The tool_use block `callId` and the tool_result answering it in a Messages request. */
export function anthropicCallAndResult(
  body: Record<string, unknown> | undefined,
  callId: string,
): { call: Block | undefined; result: Block | undefined } {
  const blocks = messageBlocks(body);
  return {
    call: blocks.find((block) => block.type === 'tool_use' && block.id === callId),
    result: blocks.find((block) => block.type === 'tool_result' && block.tool_use_id === callId),
  };
}

/** The input items of a Responses request. */
export function responsesInput(body: Record<string, unknown> | undefined): Block[] {
  return (body?.input ?? []) as Block[];
}

/** The function_call item `callId` and its function_call_output in a Responses request. */
export function codexCallAndOutput(
  body: Record<string, unknown> | undefined,
  callId: string,
): { call: Block | undefined; output: Block | undefined } {
  const input = responsesInput(body);
  return {
    call: input.find((item) => item.type === 'function_call' && item.call_id === callId),
    output: input.find((item) => item.type === 'function_call_output' && item.call_id === callId),
  };
}

/** The call `callId` and the result answering it in a request of either wire: the call, the result's text and flag. */
export function sentResult(
  wire: 'anthropic' | 'responses',
  body: Record<string, unknown> | undefined,
  callId: string,
): { call: Block | undefined; text: string | undefined; isError: unknown } {
  if (wire === 'responses') {
    const { call, output } = codexCallAndOutput(body, callId);
    return { call, text: output === undefined ? undefined : textOf(output.output), isError: undefined };
  }
  const { call, result } = anthropicCallAndResult(body, callId);
  return { call, text: result === undefined ? undefined : textOf(result.content), isError: result?.is_error };
}
