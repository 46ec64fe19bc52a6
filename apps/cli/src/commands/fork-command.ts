import { resolve } from 'node:path';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { isFile } from '../native-files.js';
import type { OptionValues } from '../parse-command-line.js';
import { storeArguments } from '../store-arguments.js';
import { withHost } from '../with-host.js';
import { parseSeq } from './print-command.js';

/**
 * `dsh fork ID|NAME [--at SEQ] [--name N] [--idempotency-key K] [--json]`: prints the child id (stdout) and what was forked (stderr).
 * `dsh fork FILE --at REF`: the native fork of a Claude Code, Codex or pi file.
 */
export async function forkCommand(context: CliContext, values: OptionValues, ref: string): Promise<number> {
  // An argument naming an existing file is a Claude Code, Codex or pi session file (SPEC §18).
  if (await isFile(resolve(context.cwd, ref))) return (await import('./native-fork-command.js')).nativeForkCommand(context, values, ref);
  if (values.format !== undefined) throw new CliError('USAGE', `--format applies to a session FILE; ${ref} is no file here, so it was read as a dsh session id or name.`);
  const atSeq = typeof values.at === 'string' ? parseSeq('--at', values.at) : undefined;
  const result = await withHost(context, values, (host) =>
    host.fork(ref, {
      ...(atSeq === undefined ? {} : { atSeq }),
      ...(typeof values.name === 'string' ? { title: values.name } : {}),
      ...(typeof values['idempotency-key'] === 'string' ? { idempotencyKey: values['idempotency-key'] } : {}),
    }),
  );
  if (values.json === true) {
    context.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  }
  context.stdout.write(`${result.sessionId}\n`);
  context.stderr.write(
    `dsh: forked ${result.parentSession} at seq ${result.forkCut} (${result.inheritedEventCount} events inherited); continue it with dsh -p "…" --resume ${result.sessionId}${storeArguments(context, values)}\n`,
  );
  return 0;
}
