/**
 * The assertion every native interop test ends on (SPEC §18 "What the tool then does"): the model
 * request a real tool sent after resuming a file dsh wrote carries the call followed by exactly
 * dsh's result text — marked as an error where the wire has a flag — and none of the tool's own
 * patches for a call without a result. `expectResultAfterCall` is the same for any result.
 */
import { expect } from 'vitest';
import { anthropicResults, anthropicResultsAfter, responsesInput, textOf } from './request-readers.js';
import type { NativeTool } from './native-session.js';

/**
 * What each tool sends in place of a missing result (SPEC §18's table). Not among Claude Code's: the
 * assistant placeholder "No response requested." it inserts after any resumed transcript that ends
 * on a user entry (observed in 2.1.332; docs/import.md), which follows dsh's result, never replaces it.
 */
export const TOOL_PATCHES: Readonly<Record<NativeTool, readonly string[]>> = {
  'claude-code': ['[Tool result missing due to internal error]', '[Tool call interrupted', 'Continue from where you left off'],
  codex: ['"aborted"'],
  pi: ['No result provided'],
};

/** `request` (as `tool` sent it) answers `callId` once, right after the call, with dsh's error result `text`, and patches nothing. */
export function expectDshCloser(tool: NativeTool, request: Record<string, unknown>, callId: string, text: string): void {
  expectResultAfterCall(tool, request, callId, { text, isError: true });
}

/** `request` answers `callId` once, right after the call, with `text` (and `isError`, where the wire has the flag), and patches nothing. */
export function expectResultAfterCall(
  tool: NativeTool,
  request: Record<string, unknown>,
  callId: string,
  result: { text: string; isError: boolean },
): void {
  const { text, isError } = result;
  if (tool === 'codex') {
    const input = responsesInput(request);
    const at = input.findIndex((item) => item.type === 'function_call' && item.call_id === callId);
    expect(at, 'the request carries the inherited function_call').toBeGreaterThanOrEqual(0);
    expect(input[at + 1]).toMatchObject({ type: 'function_call_output', call_id: callId });
    // Codex's function_call_output has no error flag: the text alone says it.
    expect(input.filter((item) => item.type === 'function_call_output' && item.call_id === callId).map((item) => item.output)).toEqual([
      text,
    ]);
  } else {
    const after = anthropicResultsAfter(request, callId);
    expect(anthropicResults(request, callId), 'no other result answers the call').toEqual(after);
    // Claude Code sends the text as the block's string content; pi as text parts.
    expect(
      after.map((block) => ({ text: tool === 'claude-code' ? block.content : textOf(block.content), isError: block.is_error })),
    ).toEqual([{ text, isError }]);
  }
  const raw = JSON.stringify(request);
  for (const patch of TOOL_PATCHES[tool]) expect(raw).not.toContain(patch);
}
