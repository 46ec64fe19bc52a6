/**
 * @module terminal-text
 * What the CLI prints from a session or a session file reaches a terminal as text, never as a
 * terminal command: C0 and C1 controls, DEL and the bidi overrides (U+202A–U+202E, U+2066–U+2069)
 * are shown escaped (`\x1b`, `\x9b`, `\u202e`). Every text print site passes foreign text through
 * `terminalLine` (titles, names, cwd, ids, paths) or `terminalBody` (message, tool and reasoning text).
 */

// eslint-disable-next-line no-control-regex -- control characters are what this module escapes
const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- as above, newline and tab kept
const UNSAFE_IN_BODY = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function escaped(character: string): string {
  const code = character.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` as one line of a terminal: every control (newline and tab too), DEL and bidi override escaped. */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, escaped);
}

/** `text` as a body of lines: as `terminalLine`, but newlines and tabs stay what they are. */
export function terminalBody(text: string): string {
  return text.replace(UNSAFE_IN_BODY, escaped);
}
