import type { SessionEvent } from 'dsh-codec';
import type { AgentDelta } from 'dsh-host';
import { describeForTerminal, type Paint } from './interactive-output.js';

/** Prints one session's turn on a terminal: streamed text as it arrives, then each appended event. */
export type TerminalPrinter = {
  /** Writes a delta's text at once (a new step starts on a new line). */
  delta(delta: AgentDelta): void;
  /**
   * Writes what a person sees of an appended event. The message of a step whose text was streamed
   * only closes that text with its seq (`… [12]`); any other line starts on a fresh line.
   */
  event(event: SessionEvent): void;
};

/** A printer writing to `write` with `paint`'s styling. */
export function terminalPrinter(write: (text: string) => void, paint: Paint): TerminalPrinter {
  // The step whose text is on screen, and whether the cursor is at the start of a line.
  let streamed: string | undefined;
  let atLineStart = true;
  const freshLine = () => {
    if (!atLineStart) write('\n');
    atLineStart = true;
  };
  return {
    delta(delta) {
      if (delta.text === undefined || delta.text === '') return;
      const key = `${String(delta.turn)}:${String(delta.step)}`;
      if (streamed !== key) freshLine();
      streamed = key;
      write(delta.text);
      atLineStart = delta.text.endsWith('\n');
    },
    event(event) {
      const data = (event.data ?? {}) as { turn?: unknown; step?: unknown };
      if (event.type === 'assistant/message' && streamed !== undefined && streamed === `${String(data.turn)}:${String(data.step)}`) {
        write(`${atLineStart ? '' : ' '}${paint.dim(`[${String(event.seq)}]`)}\n`);
        atLineStart = true;
        streamed = undefined;
        return;
      }
      const line = describeForTerminal(event, paint);
      if (line === undefined) return;
      freshLine();
      if (event.type === 'turn/end') streamed = undefined;
      write(`${line}\n`);
    },
  };
}
