/**
 * @module terminal-printer
 * Interactive mode's printer of one turn: streamed text as it arrives, then each appended event.
 */
import type { SessionEvent } from 'dsh-codec';
import type { AgentDelta } from 'dsh-host/core';
import { describeForTerminal, type Paint } from './interactive-output.js';
import { terminalBody } from '../terminal-text.js';

/** Prints one session's turn on a terminal: streamed text as it arrives, then each appended event. */
export type TerminalPrinter = {
  /** Writes a delta's text at once (a new step starts on a new line). */
  delta(delta: AgentDelta): void;
  /**
   * Writes what a person sees of an appended event. The message of a step whose text was streamed
   * only closes that text with its seq (`… [12]`); any other line starts on a fresh line.
   */
  event(event: SessionEvent): void;
  /** Ends a line left open by streamed text, so the next message starts on its own line. */
  endLine(): void;
};

/** A printer writing to `write` with `paint`'s styling; reasoning deltas are shown dimmed after `thinking: `. */
export function terminalPrinter(write: (text: string) => void, paint: Paint): TerminalPrinter {
  // The step streaming on screen, what it is streaming, and whether the cursor is at the start of a line.
  let streamed: string | undefined;
  let kind: 'text' | 'reasoning' | undefined;
  let atLineStart = true;
  const freshLine = () => {
    if (!atLineStart) write('\n');
    atLineStart = true;
  };
  const show = (key: string, as: 'text' | 'reasoning', raw: string) => {
    // A model's text may carry terminal commands (a tool output it repeats): shown escaped.
    const piece = terminalBody(raw);
    if (streamed !== key || kind !== as) {
      freshLine();
      if (as === 'reasoning') write(paint.dim('thinking: '));
    }
    streamed = key;
    kind = as;
    write(as === 'reasoning' ? paint.dim(piece) : piece);
    atLineStart = piece.endsWith('\n');
  };
  return {
    endLine() {
      freshLine();
      streamed = undefined;
    },
    delta(delta) {
      const key = `${String(delta.turn)}:${String(delta.step)}`;
      if (delta.reasoning !== undefined && delta.reasoning !== '') show(key, 'reasoning', delta.reasoning);
      if (delta.text !== undefined && delta.text !== '') show(key, 'text', delta.text);
    },
    event(event) {
      const data = (event.data ?? {}) as { turn?: unknown; step?: unknown };
      if (event.type === 'assistant/message' && streamed !== undefined && streamed === `${String(data.turn)}:${String(data.step)}`) {
        const textShown = kind === 'text';
        streamed = undefined;
        kind = undefined;
        if (textShown) {
          write(`${atLineStart ? '' : ' '}${paint.dim(`[${String(event.seq)}]`)}\n`);
          atLineStart = true;
          return;
        }
        // Only its reasoning streamed: the message's text (if any) has not been shown yet.
        freshLine();
        write(`${describeForTerminal(event, paint) ?? paint.dim(`[${String(event.seq)}]`)}\n`);
        return;
      }
      const line = describeForTerminal(event, paint);
      if (line === undefined) return;
      freshLine();
      if (event.type === 'turn/end') {
        streamed = undefined;
        kind = undefined;
      }
      write(`${line}\n`);
    },
  };
}
