/**
 * @module interactive-output
 * How interactive mode styles its output (colour only on a terminal, never with `NO_COLOR`) and
 * what a person sees of each appended event.
 */
import type { ContentBlock, SessionEvent } from 'dsh-codec';
import type { CliContext } from '../cli-context.js';
import { terminalBody, terminalLine } from '../terminal-text.js';

/** Terminal styling: ANSI colours only when stdout is a terminal and `NO_COLOR` is unset. */
export type Paint = { dim(text: string): string; tool(text: string): string; error(text: string): string; bold(text: string): string };

/** The styling for this context (plain text when piped or with `NO_COLOR`). */
export function paintFor(context: CliContext): Paint {
  const colour = (context.stdout as { isTTY?: boolean }).isTTY === true && (context.env.NO_COLOR ?? '') === '';
  const wrap = (code: string) => (text: string) => (colour ? `\u001B[${code}m${text}\u001B[0m` : text);
  return { dim: wrap('2'), tool: wrap('36'), error: wrap('31'), bold: wrap('1') };
}

function textOf(content: readonly ContentBlock[] | undefined): string {
  return (content ?? []).flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}

function clip(text: string, max = 240): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * What a person sees of one appended event in interactive mode, or undefined for bookkeeping events:
 * assistant text, each tool call with its effect and arguments, each result, and the seqs to fork at.
 */
export function describeForTerminal(event: SessionEvent, paint: Paint): string | undefined {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const seq = paint.dim(`[${String(event.seq)}]`);
  switch (event.type) {
    case 'assistant/message': {
      const text = textOf((data.message as { content?: ContentBlock[] } | undefined)?.content);
      return text.trim() === '' ? undefined : `${seq} ${terminalBody(text)}`;
    }
    case 'tool/call':
      return `${seq} ${paint.tool(`⚙ ${terminalLine(String(data.name))}`)} ${paint.dim(`(${terminalLine(String(data.effect))})`)} ${clip(terminalLine(JSON.stringify(data.arguments)))}`;
    case 'tool/result': {
      const message = data.message as { content?: ContentBlock[]; isError?: boolean } | undefined;
      const body = clip(terminalLine(textOf(message?.content).replace(/\n/g, ' ⏎ ')));
      return `${seq} ${message?.isError === true ? paint.error(`✗ ${body}`) : paint.dim(`→ ${body}`)}`;
    }
    case 'turn/end': {
      const reason = data.reason as { kind: string; error?: { code: string; message?: string } };
      const detail =
        reason.error === undefined ? '' : ` (${reason.error.code}${reason.error.message === undefined ? '' : `: ${reason.error.message}`})`;
      const line = `${seq} turn ${String(data.turn)} ${terminalLine(`${reason.kind}${detail}`)}`;
      return reason.kind === 'completed' ? paint.dim(line) : paint.error(line);
    }
    default:
      return undefined;
  }
}
