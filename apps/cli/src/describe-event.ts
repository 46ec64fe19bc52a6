/**
 * @module describe-event
 * One short line per event (`dsh show`, `/events`), including the Claude Agent SDK entries
 * dsh-claude-agent-sdk stores.
 */
import type { ContentBlock, SessionEvent } from 'dsh-codec';

function clip(text: string, max = 72): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function textOf(content: readonly ContentBlock[] | undefined): string {
  return (content ?? []).flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(' ');
}

type ClaudeBlock = {
  type?: unknown;
  text?: unknown;
  name?: unknown;
  id?: unknown;
  tool_use_id?: unknown;
  content?: unknown;
  is_error?: unknown;
};

/**
 * A Claude Agent SDK transcript entry stored by dsh-claude-agent-sdk (`claude/entry`): who spoke and
 * what, the calls an assistant entry makes, the result a tool_result entry carries.
 */
function describeClaudeEntry(entry: Record<string, unknown>): string {
  const type = String(entry.type);
  const content = (entry.message as { content?: unknown } | undefined)?.content;
  if (typeof content === 'string') return clip(`${type}: ${content}`);
  if (!Array.isArray(content)) return clip(`${type}${typeof entry.uuid === 'string' ? ` ${entry.uuid}` : ''}`);
  const parts = (content as ClaudeBlock[]).flatMap((block) => {
    if (block.type === 'text' && typeof block.text === 'string') return [block.text];
    if (block.type === 'tool_use') return [`→ calls ${String(block.name)}#${String(block.id)}`];
    if (block.type === 'tool_result') {
      const text =
        typeof block.content === 'string'
          ? block.content
          : Array.isArray(block.content)
            ? (block.content as ClaudeBlock[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join(' ')
            : '';
      return [`result of ${String(block.tool_use_id)}${block.is_error === true ? ' (error)' : ''}: ${text}`];
    }
    return block.type === 'thinking' ? ['(thinking)'] : [];
  });
  return clip(`${type}: ${parts.join(' ')}`);
}

/** One short line saying what an event holds, for `dsh show`. */
export function describeEvent(event: SessionEvent): string {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const message = data.message as { content?: ContentBlock[]; isError?: boolean } | undefined;
  switch (event.type) {
    case 'session/title':
      return JSON.stringify(data.title);
    case 'session/end-seed':
      return data.inherited === true ? 'inherited marker (end of the fork seed)' : 'end of seed';
    case 'input/queued':
      return `${String(data.inputId)}: ${clip(textOf(message?.content))}`;
    case 'user/message': {
      const replace = event.surfaceOp === undefined ? '' : ` (replaces ${event.surfaceOp.start}..${event.surfaceOp.end})`;
      return `${clip(textOf(message?.content))}${replace}`;
    }
    case 'assistant/message': {
      const calls = (message?.content ?? []).flatMap((block) => (block.type === 'tool-call' ? [`${block.name}#${block.id}`] : []));
      return clip(`${textOf(message?.content)}${calls.length > 0 ? ` → calls ${calls.join(', ')}` : ''}`);
    }
    case 'tool/call':
      return clip(`${String(data.name)}#${String(data.callId)} ${String(data.arguments)} (${String(data.effect)})`);
    case 'tool/result': {
      const error = data.error as { code?: string } | undefined;
      return clip(
        `${message?.isError === true ? `error${error?.code === undefined ? '' : ` ${error.code}`}: ` : ''}${textOf(message?.content)}`,
      );
    }
    case 'turn/start':
    case 'step/start':
    case 'step/end': {
      const { turn, step } = data as { turn: number; step?: number };
      return step === undefined ? `turn ${turn}` : `turn ${turn} step ${step}`;
    }
    case 'turn/end': {
      const { turn, reason } = data as { turn: number; reason: { kind: string; error?: { code: string } } };
      return `turn ${turn}: ${reason.kind}${reason.error === undefined ? '' : ` (${reason.error.code})`}`;
    }
    case 'claude/entry':
      return describeClaudeEntry(data);
    case 'claude/key': {
      const subpath = typeof data.subpath === 'string' ? ` ${data.subpath}` : '';
      return clip(`Claude Agent SDK transcript ${String(data.sessionId)}${subpath} (project ${String(data.projectKey)})`, 160);
    }
    case 'claude/fork': {
      const parent = (data.parent ?? {}) as { sessionId?: unknown };
      return clip(
        `forked from Claude session ${String(parent.sessionId)} at entry ${String(data.at)} (${String(data.inheritedEntryCount)} entries inherited)`,
        160,
      );
    }
    case 'workspace/checkpoint': {
      const skipped = Array.isArray(data.skipped) ? `, ${String(data.skipped.length)} path(s) skipped` : '';
      const after = data.after === 'call' ? `after call ${String(data.callId)}` : 'at turn start';
      return clip(`files checkpointed ${after}: tree ${String(data.tree).slice(0, 12)}${skipped} (${String(data.ms)} ms)`, 160);
    }
    default:
      return clip(JSON.stringify(event.data));
  }
}
