/** @module parse-seq — an `--at`/`--to` event seq of a command line, or a `USAGE` error naming the flag. */
import { CliError } from './cli-error.js';

/** A non-negative integer option, or a `USAGE` error naming it. */
export function parseSeq(flag: string, value: string): number {
  if (!/^-?\d+$/.test(value.trim()))
    throw new CliError('USAGE', `${flag} expects an event seq (an integer), received '${value}'.`, {
      hint: 'see the seqs with `dsh show ID`',
    });
  return Number(value);
}
