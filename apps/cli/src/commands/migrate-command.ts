/**
 * @module migrate-command
 * `dsh migrate`: a log of any version as current-format JSONL, or back as V6 (`--to 6`), printed or written in place.
 */
import { CodecError, CURRENT_FORMAT_VERSION, encodeJsonlAtVersion, WRITABLE_FORMAT_VERSIONS } from 'dsh-codec';
import { rewriteLogFile } from 'dsh-host/core';
import { CliError } from '../cli-error.js';
import type { CliContext } from '../cli-context.js';
import { decodeLogFile, decodeLogText } from './validate-command.js';

type Target = (typeof WRITABLE_FORMAT_VERSIONS)[number];

/** `--to VERSION` as a version `dsh migrate` writes (default: the current one); `USAGE` naming the ones it writes otherwise. */
export function targetVersion(value: string | undefined): Target {
  if (value === undefined) return CURRENT_FORMAT_VERSION;
  const version = (WRITABLE_FORMAT_VERSIONS as readonly number[]).find((known) => /^\s*\d+\s*$/.test(value) && Number(value) === known);
  if (version !== undefined) return version as Target;
  const versions = WRITABLE_FORMAT_VERSIONS.map((known) =>
    known === CURRENT_FORMAT_VERSION ? `${String(known)} (current)` : String(known),
  );
  throw new CliError(
    'USAGE',
    `--to expects a format version dsh migrate writes, ${versions.join(' or ')}, received '${value}'. Nothing was read or written.`,
    {
      hint: `dsh migrate writes the current format, or the one before it for a dsh that reads only V${String(CURRENT_FORMAT_VERSION - 1)}`,
    },
  );
}

/**
 * `dsh migrate FILE [--to VERSION] [--write] [--max-bytes N]`: prints the log as JSONL of the target
 * version (`CURRENT_FORMAT_VERSION` by default; `--to 6` one self-contained V6 log with the same events,
 * a JSONL store's manifest read with its segments), or replaces FILE keeping `FILE.bak` (which still
 * names a manifest's segments, so they stay) — as a writer of the session: under its lease
 * (`SESSION_BUSY` while another process writes it), decoding what is stored once the lease is held.
 * A log holding data V6 cannot hold is refused (`UNREPRESENTABLE`, naming the event by seq); nothing is dropped.
 */
export async function migrateCommand(context: CliContext, file: string, write: boolean, maxBytes?: number, to?: string): Promise<number> {
  const target = targetVersion(to);
  // Bounded and checked before anything is read (NOT_A_FILE, FILE_TOO_LARGE), also for --write.
  const decoded = await decodeLogFile(context, file, maxBytes);
  const encode = (log: { header: typeof decoded.header; events: typeof decoded.events }): string => {
    try {
      return encodeJsonlAtVersion({ header: log.header, events: log.events }, target);
    } catch (error) {
      if (!CodecError.is(error) || error.code !== 'UNREPRESENTABLE') throw error;
      throw new CliError('UNREPRESENTABLE', `${file}: ${error.message}`, {
        cause: error,
        hint: `keep it at V${String(CURRENT_FORMAT_VERSION)}: a dsh that reads V${String(CURRENT_FORMAT_VERSION)} opens it`,
      });
    }
  };
  if (!write) {
    context.stdout.write(encode(decoded));
    return 0;
  }
  let sourceVersion = decoded.sourceVersion;
  let lineEndings = decoded.lineEndings;
  const outcome = await rewriteLogFile(file, (text) => {
    const current = decodeLogText(file, text, context);
    sourceVersion = current.sourceVersion;
    lineEndings = current.lineEndings;
    return encode(current);
  });
  if (!outcome.written) {
    context.stderr.write(`${file} is already V${String(target)}; nothing to write\n`);
    return 0;
  }
  const endings = lineEndings === undefined ? '' : ` with ${lineEndings.toUpperCase()} line endings`;
  const aside = outcome.olderBackup === undefined ? '' : ` (the earlier ${file}.bak is now ${outcome.olderBackup})`;
  context.stderr.write(
    `migrated ${file} from V${String(sourceVersion)}${endings} to V${String(target)}; the original is kept as ${file}.bak${aside}\n`,
  );
  return 0;
}
