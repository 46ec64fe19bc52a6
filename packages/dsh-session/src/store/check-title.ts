/**
 * @module Titles that print as what they are: control characters and bidi overrides refused (`INVALID_TITLE`).
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
