import type { CliContext } from '../cli-context.js';
import type { OptionValues } from '../parse-command-line.js';
import { storeArguments } from '../store-arguments.js';
import { withHost } from '../with-host.js';
import { parseSeq } from './print-command.js';

/** `dsh fork ID|NAME [--at SEQ] [--name N] [--idempotency-key K] [--json]`: prints the child id (stdout) and what was forked (stderr). */
export async function forkCommand(context: CliContext, values: OptionValues, ref: string): Promise<number> {
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
