/**
 * Claude Agent SDK transcripts that dsh-claude-agent-sdk stores (one `claude/entry` event per
 * entry, verbatim): user prompts, assistant text, tool calls and their results, as transcript items,
 * so the demo shows such a session as the conversation it is. Bookkeeping entries show nothing.
 */
import type { TranscriptItem } from './transcript-item.js';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;
type Block = {
  type?: unknown;
  text?: unknown;
  id?: unknown;
  name?: unknown;
  input?: unknown;
  tool_use_id?: unknown;
  content?: unknown;
  is_error?: unknown;
};

function blocksOf(entry: Record<string, unknown>): Block[] | string | undefined {
  const message = entry.message;
  if (typeof message !== 'object' || message === null) return undefined;
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? (content as Block[]) : undefined;
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Block[]).flatMap((part) => (typeof part.text === 'string' ? [part.text] : [])).join('\n\n');
}

/** The items of one stored entry at `seq`; `tools` holds the calls seen so far, for their results. */
export function claudeEntryItems(entry: Record<string, unknown>, seq: number, tools: Map<string, ToolItem>): TranscriptItem[] {
  if (entry.type !== 'user' && entry.type !== 'assistant') return [];
  if (entry.isMeta === true) return [];
  const blocks = blocksOf(entry);
  if (blocks === undefined) return [];
  if (typeof blocks === 'string') return [{ kind: entry.type, seq, text: blocks }];
  const items: TranscriptItem[] = [];
  const text = blocks.flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('\n\n');
  if (text !== '') items.push({ kind: entry.type, seq, text });
  for (const block of blocks) {
    if (block.type === 'tool_use' && typeof block.id === 'string') {
      const tool: ToolItem = {
        kind: 'tool',
        seq,
        callId: block.id,
        name: typeof block.name === 'string' ? block.name : '?',
        arguments: JSON.stringify(block.input ?? {}),
      };
      tools.set(block.id, tool);
      items.push(tool);
    } else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
      const result = { seq, text: resultText(block.content), isError: block.is_error === true };
      const tool = tools.get(block.tool_use_id);
      if (tool !== undefined) tool.result = result;
      else items.push({ kind: 'tool', seq, callId: block.tool_use_id, name: '?', arguments: '', result });
    }
  }
  return items;
}
