import { readFileSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPostgresStore } from 'dsh-postgres';
import { SessionError, type Session, type SessionStore } from 'dsh-session';
import { postgresTestUrl } from '@dsh/test-utils';
import { testSchemas } from '../__fixtures__/test-schemas.js';

const url = postgresTestUrl();
const connectionString = url ?? '';
const onLinux = process.platform === 'linux';
/** Above Linux's largest pid_max (2^22): no process has it. */
const NO_SUCH_PID = 2 ** 22 + 1;
// Renewed every leaseMs / 3: with this lease no renewal runs while a test looks at a row.
const LONG_LEASE_MS = 600_000;

/** The message of the error `promise` rejects with (a `SessionError` of `code`). */
async function refusal(promise: Promise<unknown>, code: string): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(SessionError.is(error) && error.code).toBe(code);
  return (error as Error).message;
}

describe.skipIf(url === undefined)(
  'the PostgreSQL lease records its holder as the JSONL lease does, and tells a writer why it lost it',
  () => {
    const made = testSchemas(connectionString);

    function fixture(prefix: string) {
      const schema = made.schema(prefix);
      const open = async (leaseMs = LONG_LEASE_MS): Promise<SessionStore> =>
        made.keep(await openPostgresStore({ connectionString, schema, hostId: 'same-host', leaseMs }));
      const q = (sql: string): Promise<{ rows: Record<string, unknown>[] }> => made.query(schema, sql);
      return { open, q };
    }

    /** A flush of `session` after one more event: the lost writer's refusal message. */
    const lostFlush = (session: Session): Promise<string> => {
      session.append('session/title', { title: 'after the takeover' });
      return refusal(session.flush(), 'SESSION_BUSY');
    };

    it.runIf(onLinux)(
      'records pid, start time, PID namespace and boot id of the holder on create and on open, and clears them on release',
      async () => {
        const { open, q } = fixture('lease_identity');
        const store = await open();
        const columns = `SELECT holder_host, holder_pid, holder_start, holder_pid_namespace, holder_boot_id FROM S.sessions WHERE id = 'held'`;
        const start = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ')[19];
        const expected = {
          holder_host: 'same-host',
          holder_pid: process.pid,
          holder_start: start,
          holder_pid_namespace: readlinkSync('/proc/self/ns/pid'),
          holder_boot_id: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
        };
        const created = await store.create({ id: 'held' });
        expect((await q(columns)).rows).toEqual([expected]);
        await created.close();
        expect((await q(columns)).rows).toEqual([
          { holder_host: null, holder_pid: null, holder_start: null, holder_pid_namespace: null, holder_boot_id: null },
        ]);
        const opened = await store.open('held');
        expect((await q(columns)).rows).toEqual([expected]);
        await opened.close();
      },
    );

    it('a holder of this host id in another PID namespace, of another boot, or that recorded neither is not judged by its pid: SESSION_BUSY until its lease expires', async () => {
      const { open, q } = fixture('lease_other_namespace');
      const [holderStore, other] = [await open(), await open()];
      const holder = await holderStore.create({ id: 'held' });
      // The recorded pid names no process here; only the namespace or boot says it is not one of ours.
      await q(`UPDATE S.sessions SET holder_pid = ${String(NO_SUCH_PID)}`);
      for (const change of [
        `holder_pid_namespace = 'pid:[4026599999]'`,
        `holder_boot_id = '00000000-0000-4000-8000-000000000000'`,
        `holder_pid_namespace = NULL, holder_boot_id = NULL, holder_start = NULL`,
      ]) {
        const { rows } = await q(`SELECT holder_pid_namespace, holder_boot_id, holder_start FROM S.sessions`);
        await q(`UPDATE S.sessions SET ${change}`);
        expect(await refusal(other.open('held'), 'SESSION_BUSY')).toContain(`pid ${String(NO_SUCH_PID)} on same-host`);
        const row = rows[0] as { holder_pid_namespace: string | null; holder_boot_id: string | null; holder_start: string | null };
        await q(
          `UPDATE S.sessions SET holder_pid_namespace = ${literal(row.holder_pid_namespace)}, holder_boot_id = ${literal(row.holder_boot_id)}, holder_start = ${literal(row.holder_start)}`,
        );
      }
      // The lease not renewed for its length: taken over, and the holder is told so.
      await q(`UPDATE S.sessions SET holder_pid_namespace = 'pid:[4026599999]', lease_expires = clock_timestamp() - interval '1 second'`);
      const taker = await other.open('held');
      const message = await lostFlush(holder);
      expect(message).toMatch(
        new RegExp(
          `taken over by host same-host pid ${String(process.pid)} at \\S+ after this holder's lease expired \\(it was not renewed for ${String(LONG_LEASE_MS)} ms`,
        ),
      );
      expect(message).not.toMatch(/gone/);
      expect(message).toContain(`pid ${String(process.pid)} on same-host holds it since`);
      await taker.close();
    });

    it.runIf(onLinux)(
      'a holder of this host id, namespace and boot whose process is gone is taken over at once; its writer hears that, not that it stayed silent',
      async () => {
        const { open, q } = fixture('lease_gone');
        const [holderStore, other] = [await open(), await open()];
        const holder = await holderStore.create({ id: 'held' });
        // A mistaken verdict, as a reused or misrecorded pid would give: the writer is alive.
        await q(`UPDATE S.sessions SET holder_pid = ${String(NO_SUCH_PID)}`);
        const taker = await other.open('held');
        const { rows } = await q(`SELECT taken_over FROM S.sessions`);
        expect(rows[0]?.taken_over).toMatchObject({
          generation: 1,
          reason: 'gone',
          holderPid: NO_SUCH_PID,
          host: 'same-host',
          pid: process.pid,
        });
        const message = await lostFlush(holder);
        expect(message).toMatch(
          new RegExp(
            `taken over by host same-host pid ${String(process.pid)} at \\S+, which found the process this lease recorded \\(pid ${String(NO_SUCH_PID)}, same host id, PID namespace and boot\\) gone`,
          ),
        );
        expect(message).not.toMatch(/expired|silent/);
        await taker.close();
      },
    );

    it('a writer whose generation was replaced more than once is told only that the row changed, with both generations', async () => {
      const { open, q } = fixture('lease_changed');
      const [holderStore, other] = [await open(), await open()];
      const holder = await holderStore.create({ id: 'held' });
      await q(`UPDATE S.sessions SET lease_expires = clock_timestamp() - interval '1 second'`);
      await (await other.open('held')).close();
      // Released, then taken again: generation 3, taken from nobody.
      const third = await other.open('held');
      await third.close();
      const message = await lostFlush(holder);
      expect(message).toContain(
        'this writer lost its lease (generation 1): the lease row changed: it is at generation 3, this writer held generation 1; nobody holds it now.',
      );
      expect(message).toMatch(/events from seq \d+ on were not written/);
      expect(message).not.toMatch(/expired|gone|silent/);
    });
  },
);

/** `value` as an SQL literal. */
function literal(value: string | null): string {
  return value === null ? 'NULL' : `'${value.replaceAll("'", "''")}'`;
}
