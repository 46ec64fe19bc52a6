/**
 * `shellCommand`: an argv as a line a user can paste into a POSIX shell — each argument that holds
 * anything but plain word characters single-quoted (a path with spaces, `$`, quotes or globs);
 * `shellWord` one such word; `shellLineIn` the line run in a directory with variables set.
 * @module
 */

const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `word` as one shell word: as it is when plainly safe, else single-quoted (`'` written as `'\''`). */
export function shellWord(word: string): string {
  return PLAIN.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** `argv` joined by spaces, each argument that needs it single-quoted. */
export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellWord).join(' ');
}

/**
 * `cd DIR && NAME=VALUE … argv`: `argv` run in `dir` (when given) with `env` set for it alone — the
 * line a shell reads back as exactly that directory, those values and that argv. Throws on a variable
 * name a shell would not read as an assignment.
 */
export function shellLineIn(options: { dir?: string; env?: Readonly<Record<string, string>> }, argv: readonly string[]): string {
  const assignments = Object.entries(options.env ?? {}).map(([name, value]) => {
    if (!VARIABLE_NAME.test(name)) throw new Error(`shellLineIn: expected a shell variable name, received '${name}'`);
    return `${name}=${shellWord(value)}`;
  });
  const command = [...assignments, shellCommand(argv)].join(' ');
  return options.dir === undefined ? command : `cd ${shellWord(options.dir)} && ${command}`;
}
