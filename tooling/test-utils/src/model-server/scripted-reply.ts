/**
 * @module model-server/scripted-reply
 * What the fake model server answers, independent of the wire: reasoning, text and tool calls. One
 * shape for the three APIs, so a test scripts a conversation once and any client (dsh's adapters,
 * Claude Code, Codex, pi) can run it.
 */

/** The three wire APIs the server speaks: Anthropic Messages, OpenAI Responses, OpenAI Chat Completions. */
export type ModelApi = 'anthropic' | 'responses' | 'chat';

/** One tool call the fake model makes: its id, the tool's name and its input object. */
export type ScriptedToolCall = { id: string; name: string; input: Record<string, unknown> };

/**
 * A model reply: optional reasoning (Anthropic signs it with `signature`, default `sig`), optional
 * text, then tool calls (a reply with calls stops for `tool_use` / `tool_calls`), and the token
 * usage it reports (default 10 in, 5 out).
 */
export type ScriptedReply = {
  reasoning?: string;
  signature?: string;
  text?: string;
  toolCalls?: readonly ScriptedToolCall[];
  usage?: { input: number; output: number };
};

/** Chooses a reply for a model request; `index` counts the requests on that API so far. */
export type ReplyScript = (body: Record<string, unknown>, index: number) => ScriptedReply;

/** The usage a reply reports. */
export function usageOf(reply: ScriptedReply): { input: number; output: number } {
  return reply.usage ?? { input: 10, output: 5 };
}

/**
 * A script that answers the main conversation from `replies` in order and anything else (title and
 * summary side requests, which carry no tools) with a short text, so side calls never eat a reply.
 * Past the end of `replies` it answers `"done"`.
 */
export function scriptReplies(replies: readonly ScriptedReply[]): ReplyScript {
  let next = 0;
  return (body) => {
    const tools = body.tools;
    if (!Array.isArray(tools) || tools.length === 0) return { text: 'Session title' };
    const reply = replies[next] ?? { text: 'done' };
    next += 1;
    return reply;
  };
}
