/**
 * @module Titles that print as what they are: control characters and bidi overrides refused
 * (`INVALID_TITLE`). A caller that checks a title where it enters (the HTTP body) carries it on as a
 * `PrintableTitle`, which the store takes without checking it again.
 */
import { SessionError } from '../session-error.js';

/** Control characters (C0, DEL, C1), line/paragraph separators and bidi overrides: text that can hide or reorder what a listing shows. */
const CONTROL = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** Whether `title` is free of control characters, so it prints as what it is in every listing. */
export function isPrintableTitle(title: string): boolean {
  return !CONTROL.test(title);
}

/** Throws `INVALID_TITLE` naming the first control character of `title` and where it is. */
export function checkTitle(title: string): void {
  const match = CONTROL.exec(title);
  if (match === null) return;
  const code = (match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  throw new SessionError(
    'INVALID_TITLE',
    `Invalid title ${JSON.stringify(title.length > 60 ? `${title.slice(0, 60)}…` : title)}: expected printable text, received control character U+${code} at index ${match.index}.`,
  );
}

/** Set by `PrintableTitle`'s static block: the one way to call its private constructor. */
let makePrintable: (text: string) => PrintableTitle = () => {
  throw new Error('unreachable: PrintableTitle is initialised at module load');
};

/**
 * A title already checked (free of control characters): only `printableTitle` makes one, so a store
 * that receives it knows the check ran and does not repeat it. `text` is the title itself.
 */
export class PrintableTitle {
  readonly #text: string;

  private constructor(text: string) {
    this.#text = text;
  }

  /** The title. */
  get text(): string {
    return this.#text;
  }

  /** Serialises as the title itself. */
  toJSON(): string {
    return this.#text;
  }

  /** Whether `value` is a `PrintableTitle` (made by `printableTitle`, not an object shaped like one). */
  static is(value: unknown): value is PrintableTitle {
    return typeof value === 'object' && value !== null && #text in value;
  }

  static {
    makePrintable = (text) => new PrintableTitle(text);
  }
}

/** `title` checked once: a `PrintableTitle`, or undefined when it holds a control character (see `checkTitle` for the refusal). */
export function printableTitle(title: string): PrintableTitle | undefined {
  return isPrintableTitle(title) ? makePrintable(title) : undefined;
}

/** The text of a title to store: a `PrintableTitle` as it is, a string checked here (`INVALID_TITLE`) for callers that did not check. */
export function titleText(title: string | PrintableTitle): string {
  if (PrintableTitle.is(title)) return title.text;
  checkTitle(title);
  return title;
}
