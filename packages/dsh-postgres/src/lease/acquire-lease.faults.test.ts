// Issue 22: a live holder in another PID namespace, under the same host id, is never taken for dead
// by a pid check. The holder runs in a new namespace (`unshare --pid`) under a pid that names no
// process outside it; a process outside with the same host id must get SESSION_BUSY while the
// holder goes on writing, and after the holder is killed still waits for its lease to expire.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from 'dsh-postgres';
import { SessionError } from 'dsh-session';
import { faultTrials, postgresTestUrl, printSkip, reportFaults } from '@dsh/test-utils';
import { killAllHostProcesses, startHostProcess, type HostProcess } from '../../test/__fixtures__/start-host-process.js';
import { testSchemas } from '../__fixtures__/test-schemas.js';

const url = postgresTestUrl();
const connectionString = url ?? '';
const NAME = 'postgres-pid-namespace';
const HOST_ID = 'shared-host-id';
// Far longer than a trial: the lease may only end by the holder's death plus expiry, never by a
// renewal missed on a loaded machine.
const LEASE_MS = 600_000;

const UNSHARE = ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child'];
const probe = spawnSync(UNSHARE[0] as string, [...UNSHARE.slice(1), 'true'], { stdio: 'ignore' });
const skipReason =
  process.getuid?.() !== 0
    ? 'not root (unshare --pid needs CAP_SYS_ADMIN)'
    : (probe.error?.message ?? (probe.status === 0 ? undefined : `unshare exited ${String(probe.status)}`));

/**
 * The first pid from 100 on that names no process here. Pids outside only grow until they wrap at
 * pid_max, so it stays free for a trial.
 */
function freePid(): number {
  const used = new Set(
    readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number),
  );
  let pid = 100;
  while (used.has(pid)) pid++;
  return pid;
}

/**
 * Runs `command` as pid `pid` of a new PID namespace: its shell (pid 1) uses up pids 2 .. pid - 1 on
 * short processes, then starts it in the background (stdin kept: fd 3) and waits for it.
 */
const inNamespaceAs =
  (pid: number) =>
  (command: string[]): string[] => [
    ...UNSHARE,
    'sh',
    '-c',
    `i=2; while [ "$i" -lt ${String(pid)} ]; do /bin/true; i=$((i + 1)); done; exec 3<&0; "$@" <&3 & wait $!`,
    'sh',
    ...command,
  ];

/** Resolves once `host` has acknowledged a seq above `seq` (its `loop` reports each flushed seq). */
function ackedAbove(host: HostProcess, acked: { seq: number }, seq: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (acked.seq <= seq) return;
      host.lines.off('line', check);
      resolve();
    };
    host.lines.on('line', check);
    void host.exited.then(() => {
      reject(new Error(`the holder exited after acknowledging seq ${String(acked.seq)}, before seq ${String(seq + 1)}`));
    });
    check();
  });
}

/**
 * Resolves once no process is left in the PID namespace `namespace` (as `/proc/PID/ns/pid` names it).
 * Killing the wrapper that started a holder ends the holder itself only a moment later (the kernel's
 * parent-death signal), and until then it may still renew its lease.
 */
async function namespaceEmptied(namespace: string): Promise<void> {
  const inNamespace = (pid: string): boolean => {
    try {
      return readlinkSync(`/proc/${pid}/ns/pid`) === namespace;
    } catch {
      return false; // gone meanwhile, or not ours to read
    }
  };
  while (readdirSync('/proc').some((name) => /^\d+$/.test(name) && inNamespace(name))) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(url === undefined)('a lease holder in another PID namespace under the same host id', () => {
  const made = testSchemas(connectionString);
  afterEach(async () => {
    await killAllHostProcesses();
  });

  it('is refused SESSION_BUSY to a process outside, keeps writing, and after its death is taken over only once the lease expired', async (context) => {
    if (skipReason !== undefined) {
      printSkip(NAME, skipReason);
      context.skip();
    }
    const schema = made.schema('pid_namespace');
    const store = made.keep(await openPostgresStore({ connectionString, schema, hostId: HOST_ID, leaseMs: LEASE_MS }));
    const trials = faultTrials(2, 10);
    let refused = 0;
    let acknowledged = 0;
    let lost = 0;
    for (let trial = 0; trial < trials; trial++) {
      const id = `ns-${String(trial)}`;
      const target = freePid();
      const holder = await startHostProcess({ connectionString, schema, leaseMs: LEASE_MS, hostId: HOST_ID, wrap: inNamespaceAs(target) });
      const created = await holder.send({ op: 'create', id });
      expect(created.ok).toBe(true);
      const innerPid = created.pid as number;
      // What makes the trial a test: the recorded pid names no process here (a pid check would say
      // "dead"), and the holder's namespace is not ours.
      expect(existsSync(`/proc/${String(innerPid)}`), `pid ${String(innerPid)} of the holder's namespace also exists outside it`).toBe(
        false,
      );
      const { rows } = await made.query(schema, `SELECT holder_pid, holder_pid_namespace FROM S.sessions WHERE id = $1`, [id]);
      expect(rows[0]).toMatchObject({ holder_pid: innerPid });
      const holderNamespace = rows[0]?.holder_pid_namespace as string;
      expect(holderNamespace).not.toBe(readlinkSync('/proc/self/ns/pid'));

      const acked = { seq: -1, titles: new Map<number, string>() };
      holder.lines.on('line', (line) => {
        const parsed = JSON.parse(line) as { acked?: number; title?: string };
        if (parsed.acked === undefined) return;
        acked.seq = parsed.acked;
        acked.titles.set(parsed.acked, parsed.title ?? '');
      });
      holder.child.stdin?.write(`${JSON.stringify({ op: 'loop' })}\n`);
      await ackedAbove(holder, acked, 0);

      const error = await store.open(id).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(SessionError.is(error) && error.code).toBe('SESSION_BUSY');
      expect((error as Error).message).toContain(`pid ${String(innerPid)} on ${HOST_ID}`);
      refused++;
      // The holder was not disturbed: it goes on committing.
      await ackedAbove(holder, acked, acked.seq + 3);

      await new Promise<void>((resolve) => {
        void holder.exited.then(resolve);
        holder.child.kill('SIGKILL');
      });
      // The wrapper is gone; wait for the holder itself, or its last renewal could land after the
      // expiry this test sets below (seen once on a loaded machine: SESSION_BUSY after "expiry").
      await namespaceEmptied(holderNamespace);
      // Dead now, but nothing outside its namespace can know that: busy until the lease expires.
      await expect(store.open(id)).rejects.toMatchObject({ code: 'SESSION_BUSY' });
      const stored = (await store.inspect(id)).events;
      for (const [seq, title] of acked.titles) {
        acknowledged++;
        if ((stored[seq]?.data as { title?: string } | undefined)?.title !== title) lost++;
      }
      await made.query(schema, `UPDATE S.sessions SET lease_expires = clock_timestamp() - interval '1 second' WHERE id = $1`, [id]);
      const session = await store.open(id);
      const after = await made.query(schema, `SELECT taken_over FROM S.sessions WHERE id = $1`, [id]);
      expect(after.rows[0]?.taken_over).toMatchObject({ reason: 'expired', holderPid: innerPid });
      await session.close();
    }
    reportFaults(NAME, { trials, acknowledged, lost, refused });
    expect(lost).toBe(0);
  });
});
