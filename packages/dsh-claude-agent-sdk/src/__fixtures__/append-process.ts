/**
 * @module __fixtures__/append-process
 * A real process appending to one key, for the two-process tests: argv[2] is JSON
 * `{ dir?, postgres?: { url, schema }, key, writer, batches, size }`. Prints `{"event":"ready"}`,
 * waits for "go" on stdin (so both writers start together), appends its batches one after another,
 * prints `{"event":"done"}`, closes and exits.
 */
import { createInterface } from 'node:readline';
import { openPostgresStore } from 'dsh-postgres';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { createClaudeSessionStore, type SessionKey } from 'dsh-claude-agent-sdk';

type Args = {
  dir?: string;
  postgres?: { url: string; schema: string; leaseMs?: number };
  key: SessionKey;
  writer: string;
  batches: number;
  size: number;
  /** Keep the lease this long after the last append (a holder that is then killed still holds it). */
  holdMs?: number;
  /** After the batches, print `{"event":"done"}` and wait for stdin to close instead of exiting. */
  stay?: boolean;
};
const args = JSON.parse(process.argv[2] ?? '{}') as Args;

const store: SessionStore =
  args.postgres === undefined
    ? await openSessionStore({ dir: args.dir ?? '.' })
    : await openPostgresStore({
        connectionString: args.postgres.url,
        schema: args.postgres.schema,
        ...(args.postgres.leaseMs === undefined ? {} : { leaseMs: args.postgres.leaseMs }),
      });
const claude = createClaudeSessionStore({ store, ...(args.holdMs === undefined ? {} : { holdMs: args.holdMs, maxHoldMs: args.holdMs }) });
const say = (message: Record<string, unknown>): void => {
  process.stdout.write(`${JSON.stringify(message)}\n`);
};

const lines = createInterface({ input: process.stdin });
const go = new Promise<void>((resolve) => {
  lines.on('line', (line) => {
    if (line.trim() === 'go') resolve();
  });
});
say({ event: 'ready' });
await go;
for (let batch = 0; batch < args.batches; batch++) {
  const entries = Array.from({ length: args.size }, (_, index) => ({
    type: 'user',
    uuid: `${args.writer}-b${String(batch)}-e${String(index)}`,
    writer: args.writer,
    batch,
    index,
    message: { role: 'user', content: args.stay === true ? 'killed holder' : `entry ${String(index)} of batch ${String(batch)}` },
  }));
  await claude.append(args.key, entries);
}
say({ event: 'done' });
if (args.stay === true) await new Promise((resolve) => lines.once('close', resolve));
lines.close();
await claude.close();
await store.close();
