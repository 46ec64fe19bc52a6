/**
 * @module terminal-input
 * The terminal interactive mode reads from: readline over the keystrokes with pastes taken out whole
 * (`paste-filter.ts`), the terminal put in raw mode and asked for bracketed paste, and given back as
 * it was on close. Readline's echo can be muted while a turn streams, so a line typed meanwhile never
 * lands inside the answer.
 */
import { createInterface, type Interface } from 'node:readline';
import { Writable } from 'node:stream';
import type { CliContext } from '../cli-context.js';
import { BRACKETED_PASTE, pasteFilter } from './paste-filter.js';

/** The open terminal. */
export type TerminalInput = {
  readonly rl: Interface;
  /** The line with its paste placeholders replaced by the pasted text. */
  expand(line: string): string;
  /** Stops (or resumes) echoing what is typed. */
  mute(muted: boolean): void;
  /** Resolves once readline closed (Ctrl-D, `/exit`, a second Ctrl-C) and the terminal is given back. */
  readonly closed: Promise<void>;
  /** Whether readline has closed. */
  isClosed(): boolean;
};

/** Takes over `context.stdin`; `notice` prints the paste filter's refusals. */
export function openTerminalInput(context: CliContext, notice: (message: string) => void): TerminalInput {
  const terminal = context.stdin as NodeJS.ReadableStream & { setRawMode?: (mode: boolean) => unknown };
  const filter = pasteFilter(notice);
  const input = Object.assign(filter.input, {
    isTTY: true,
    setRawMode: (mode: boolean) => {
      if (typeof terminal.setRawMode === 'function') terminal.setRawMode(mode);
      return input;
    },
  });
  const onData = (chunk: string | Buffer) => {
    filter.write(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
  };
  terminal.setEncoding('utf8');
  terminal.on('data', onData);
  context.stdout.write(BRACKETED_PASTE.enable);
  let muted = false;
  const echoOutput = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      if (!muted) context.stdout.write(chunk);
      callback();
    },
  });
  Object.defineProperty(echoOutput, 'columns', { get: () => (context.stdout as { columns?: number }).columns ?? 80 });
  const rl = createInterface({ input, output: echoOutput, terminal: true });
  let closed = false;
  const whenClosed = new Promise<void>((resolve) => {
    rl.on('close', () => {
      closed = true;
      context.stdout.write(BRACKETED_PASTE.disable);
      terminal.off('data', onData);
      terminal.pause();
      resolve();
    });
  });
  return {
    rl,
    expand: (line) => filter.expand(line),
    mute: (value) => {
      muted = value;
    },
    closed: whenClosed,
    isClosed: () => closed,
  };
}
