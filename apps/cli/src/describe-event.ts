import type { ContentBlock, SessionEvent } from 'dsh-codec';

function clip(text: string, max = 72): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function textOf(content: readonly ContentBlock[] | undefined): string {
  return (content ?? []).flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(' ');
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
      return clip(`${message?.isError === true ? `error${error?.code === undefined ? '' : ` ${error.code}`}: ` : ''}${textOf(message?.content)}`);
    }
    case 'turn/start':
    case 'step/start':
    case 'step/end':
    {
      const { turn, step } = data as { turn: number; step?: number };
      return step === undefined ? `turn ${turn}` : `turn ${turn} step ${step}`;
    }
    case 'turn/end': {
      const { turn, reason } = data as { turn: number; reason: { kind: string; error?: { code: string } } };
      return `turn ${turn}: ${reason.kind}${reason.error === undefined ? '' : ` (${reason.error.code})`}`;
    }
    default:
      return clip(JSON.stringify(event.data));
  }
}
