/**
 * `shellCommand`: an argv as a line a user can paste into a POSIX shell — each argument that holds
 * anything but plain word characters single-quoted (a path with spaces, `$`, quotes or globs).
 * @module
 */

const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `argv` joined by spaces, each argument that needs it single-quoted (`'` written as `'\''`). */
export function shellCommand(argv: readonly string[]): string {
  return argv.map((arg) => (PLAIN.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`)).join(' ');
}
