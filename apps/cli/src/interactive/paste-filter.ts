/**
 * @module Bracketed paste for interactive mode. A terminal told `ESC[?2004h` wraps pasted text in
 * `ESC[200~ … ESC[201~`; this filter sits between stdin and readline and takes such a paste out of
 * the keystroke stream whole. readline handles every character as a key and measures the whole line
 * again for each one (quadratic: a 1 MB paste took 18 s, 10 MB more than 3 minutes), and each newline
 * in a paste would submit a prompt of its own. A short single-line paste goes on as typed text; a
 * longer one becomes a placeholder token on the prompt line, expanded when the line is submitted.
 */
import { PassThrough } from 'node:stream';

const START = '\u001B[200~';
const END = '\u001B[201~';
/** A paste up to this long without a line break is typed into the line as it is. */
const INLINE_MAX = 1000;
/** The largest paste kept (characters); a longer one is refused with a message. */
export const MAX_PASTE_CHARS = 64 * 1024 * 1024;

/** Turns bracketed paste on for a terminal (`enable`) and off again (`disable`). */
export const BRACKETED_PASTE = { enable: '\u001B[?2004h', disable: '\u001B[?2004l' } as const;

/** What the filter gives readline, and how a submitted line gets its pastes back. */
export type PasteFilter = {
  /** The keystroke stream readline reads (pastes taken out). */
  input: PassThrough;
  /** Feeds one chunk of terminal input. */
  write: (chunk: string) => void;
  /** The line with each placeholder replaced by its paste. */
  expand: (line: string) => string;
};

/** A placeholder's shape: `[paste #N: C chars, L lines]`. */
const PLACEHOLDER = /\[paste #(\d+): [\d,]+ chars, [\d,]+ lines?\]/g;

function countLines(text: string): number {
  let lines = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines += 1;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** The longest end of `text` that is a start of `marker` (kept back until the next chunk decides). */
function partialMarker(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length--) {
    if (marker.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}

/** A filter whose refusals of oversized pastes go to `notice`. */
export function pasteFilter(notice: (message: string) => void): PasteFilter {
  const input = new PassThrough({ encoding: 'utf8' });
  const pastes = new Map<number, string>();
  let pasting: string[] | undefined;
  let pastedChars = 0;
  let oversized = false;
  let held = '';

  const finishPaste = () => {
    // Terminals send a pasted line break as CR (as the Enter key); the prompt gets LF, as typed in a file.
    const text = (pasting ?? []).join('').replace(/\r\n?/g, '\n');
    pasting = undefined;
    if (oversized) {
      notice(
        `paste refused: ${pastedChars.toLocaleString('en-US')} characters is more than the ${MAX_PASTE_CHARS.toLocaleString('en-US')} a prompt may take`,
      );
    } else if (text.length <= INLINE_MAX && !/[\r\n]/.test(text)) {
      input.write(text);
    } else {
      const number = pastes.size + 1;
      pastes.set(number, text);
      const lines = countLines(text);
      input.write(
        `[paste #${String(number)}: ${text.length.toLocaleString('en-US')} chars, ${lines.toLocaleString('en-US')} line${lines === 1 ? '' : 's'}]`,
      );
    }
    oversized = false;
    pastedChars = 0;
  };

  const write = (chunk: string) => {
    let text = held + chunk;
    held = '';
    while (text !== '') {
      const marker = pasting === undefined ? START : END;
      const at = text.indexOf(marker);
      const upTo = at === -1 ? text.length - partialMarker(text, marker) : at;
      const part = text.slice(0, upTo);
      if (pasting === undefined) {
        if (part !== '') input.write(part);
      } else if (part !== '') {
        pastedChars += part.length;
        if (pastedChars > MAX_PASTE_CHARS) oversized = true;
        if (!oversized) pasting.push(part);
      }
      if (at === -1) {
        held = text.slice(upTo);
        return;
      }
      text = text.slice(at + marker.length);
      if (pasting === undefined) pasting = [];
      else finishPaste();
    }
  };

  return {
    input,
    write,
    expand: (line) =>
      line.replace(PLACEHOLDER, (token, number: string) => {
        const text = pastes.get(Number(number));
        return text ?? token;
      }),
  };
}
