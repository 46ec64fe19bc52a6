/**
 * What the fake model server answers, independent of the wire: text and/or tool calls. One shape
 * for the three APIs, so a test scripts a conversation once and any tool can run it.
 */

/** One tool call the fake model makes: its id, the tool's name and its input object. */
export type ScriptedToolCall = { id: string; name: string; input: Record<string, unknown> };

/** A model reply: optional text, then tool calls (a reply with calls ends in `tool_use`). */
export type ScriptedReply = { text?: string; toolCalls?: readonly ScriptedToolCall[] };

/** One request as the server received it: the API it came in on, the path and the parsed body. */
export type RecordedRequest = {
  api: 'anthropic' | 'responses' | 'chat' | 'count-tokens' | 'models' | 'other';
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  raw: string;
};

/** Chooses a reply for a model request; `index` counts the requests on that API so far. */
export type ReplyScript = (body: Record<string, unknown>, index: number) => ScriptedReply;

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
