/**
 * @module migrate-command
 * `dsh migrate`: a log of any version as current-format JSONL, printed or written in place.
 */
import { CURRENT_FORMAT_VERSION, encodeJsonl } from 'dsh-codec';
import { rewriteLogFile } from 'dsh-host';
import type { CliContext } from '../cli-context.js';
import { decodeLogFile, decodeLogText } from './validate-command.js';

/**
 * `dsh migrate FILE [--write] [--max-bytes N]`: prints the log as current-format JSONL (`CURRENT_FORMAT_VERSION`), or replaces FILE keeping `FILE.bak` —
 * as a writer of the session: under its lease (`SESSION_BUSY` while another process writes it),
 * decoding what is stored once the lease is held.
 */
export async function migrateCommand(context: CliContext, file: string, write: boolean, maxBytes?: number): Promise<number> {
  // Bounded and checked before anything is read (NOT_A_FILE, FILE_TOO_LARGE), also for --write.
  const decoded = await decodeLogFile(context, file, maxBytes);
  if (!write) {
    context.stdout.write(encodeJsonl({ header: decoded.header, events: decoded.events }));
    return 0;
  }
  let sourceVersion = decoded.sourceVersion;
  let lineEndings = decoded.lineEndings;
  const outcome = await rewriteLogFile(file, (text) => {
    const current = decodeLogText(file, text, context);
    sourceVersion = current.sourceVersion;
    lineEndings = current.lineEndings;
    return encodeJsonl({ header: current.header, events: current.events });
  });
  if (!outcome.written) {
    context.stderr.write(`${file} is already V${CURRENT_FORMAT_VERSION}; nothing to write\n`);
    return 0;
  }
  const endings = lineEndings === undefined ? '' : ` with ${lineEndings.toUpperCase()} line endings`;
  const aside = outcome.olderBackup === undefined ? '' : ` (the earlier ${file}.bak is now ${outcome.olderBackup})`;
  context.stderr.write(
    `migrated ${file} from V${sourceVersion}${endings} to V${CURRENT_FORMAT_VERSION}; the original is kept as ${file}.bak${aside}\n`,
  );
  return 0;
}
