/**
 * @module store-arguments
 * The `--data` / `--database-url` a printed `dsh …` command must repeat to reach the same sessions.
 */
import { resolve } from 'node:path';
import type { CliContext } from './cli-context.js';
import type { OptionValues } from './parse-command-line.js';

/** One word for a POSIX shell: as it is when it holds only safe characters, else single-quoted. */
export function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The options a `dsh …` command printed for the user must repeat to reach the same sessions: the
 * `--data DIR` (absolute, quoted) or `--database-url` given on this command line, with `"$DSH_DATABASE_URL"`
 * standing in for a URL that holds a password. Empty when the store came from the environment
 * (`$DSH_HOME`, `$DSH_DATABASE_URL`) or the default, which the same shell supplies again.
 */
export function storeArguments(context: CliContext, values: OptionValues): string {
  const url = values['database-url'];
  if (typeof url === 'string' && url !== '') {
    let password = true;
    try {
      password = new URL(url).password !== '';
    } catch {
      // not a URL to echo
    }
    return password ? ' --database-url "$DSH_DATABASE_URL"' : ` --database-url ${shellQuote(url)}`;
  }
  const data = values.data;
  return typeof data === 'string' && data !== '' ? ` --data ${shellQuote(resolve(context.cwd, data))}` : '';
}
