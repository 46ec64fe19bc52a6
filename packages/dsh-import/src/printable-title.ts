/**
 * @module printable-title
 * An imported title held to the rule a title set through dsh's API is (dsh-session's `checkTitle`,
 * dsh-host's request schema): no control characters, line separators or bidi overrides, trimmed, at
 * most 200 characters. A foreign file's title is made so rather than refused.
 */

/** The longest title the API accepts. */
export const MAX_TITLE_LENGTH = 200;

// The characters dsh-session's checkTitle refuses: C0, DEL, C1, U+2028/U+2029, bidi overrides.
const NOT_PRINTABLE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]+/gu;

/**
 * `text` as a title: each run of refused characters and whitespace one space, trimmed, cut to
 * `maxLength` (default 200) with `…`; undefined when nothing printable is left.
 */
export function printableTitle(text: string, maxLength = MAX_TITLE_LENGTH): string | undefined {
  const words = text.replace(NOT_PRINTABLE, ' ').replace(/\s+/g, ' ').trim();
  if (words === '') return undefined;
  return words.length > maxLength ? `${words.slice(0, maxLength - 1).trimEnd()}…` : words;
}
