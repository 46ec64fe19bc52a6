/**
 * One dsh host in its own Node process with its own pool, driven over stdin/stdout by JSON lines:
 * argv = connection string, schema, leaseMs, hostId. Each command gets one reply line
 * `{ ok: true, ... }` or `{ ok: false, code, message }`; `loop` streams `{ acked: seq }` lines.
 */
import { createInterface } from 'node:readline';
import { openPostgresStore } from 'dsh-postgres';
import { SessionError, type Session } from 'dsh-session';

type Command =
  | { op: 'create'; id: string }
  | { op: 'open'; id: string }
  | { op: 'append'; events: { type: string; data: unknown }[]; flush: boolean }
  | { op: 'flush' }
  | { op: 'events' }
  | { op: 'list' }
  | { op: 'fork'; source: string; atSeq: number; id: string }
  | { op: 'loop' };

const [url, schema, leaseMs, hostId] = process.argv.slice(2) as [string, string, string, string];
const store = await openPostgresStore({ connectionString: url, schema, leaseMs: Number(leaseMs), hostId });
let session: Session | undefined;
const reply = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value)}\n`);
};
const held = (): Session => {
  if (session === undefined) throw new Error('no session held');
  return session;
};

async function run(command: Command): Promise<unknown> {
  switch (command.op) {
    case 'create':
      session = await store.create({ id: command.id });
      return { pid: process.pid };
    case 'open':
      session = await store.open(command.id);
      return { events: session.events };
    case 'append':
      for (const event of command.events) held().append(event.type, event.data as never);
      if (command.flush) await held().flush();
      return { lastSeq: held().events.length - 1 };
    case 'flush':
      await held().flush();
      return {};
    case 'events':
      return { events: held().events };
    case 'list':
      return { ids: (await store.list()).map((summary) => summary.id).sort() };
    case 'fork': {
      const child = await store.fork(command.source, { atSeq: command.atSeq, id: command.id });
      await child.close();
      return { events: child.events };
    }
    case 'loop':
      // Appends and flushes forever; every acknowledged (flushed) seq is reported.
      for (let index = 0; ; index++) {
        held().append('session/title', { title: `k${String(index)}` });
        await held().flush();
        reply({ acked: held().events.length - 1, title: `k${String(index)}` });
      }
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  try {
    reply({ ok: true, ...((await run(JSON.parse(line) as Command)) as object) });
  } catch (error) {
    reply(
      SessionError.is(error)
        ? { ok: false, code: error.code, message: error.message }
        : { ok: false, code: 'THROWN', message: String(error) },
    );
  }
}
await store.close().catch(() => undefined);
