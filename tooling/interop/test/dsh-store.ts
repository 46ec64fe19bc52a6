/**
 * A dsh store the interop tests run the `dsh` bin against — a JSONL data directory, or a PostgreSQL
 * schema of its own on `$DATABASE_URL` (dropped on dispose) — with the steps the tests take on it:
 * import a tool's file, fork a stored session at one of its calls (dsh stores its forked closer),
 * and export a session as a tool's file beside the tool's own, under the tool's file name.
 */
import { dirname, join } from 'node:path';
import pg from 'pg';
import { postgresTestUrl, uniqueSchemaName, runDsh } from '@dsh/test-utils';
import { expect } from 'vitest';
import { type ToolRun } from '../src/index.js';
import type { NativeTool } from './native-session.js';

/** `--data DIR` or `--database-url URL`. */
export type DshStoreKind = 'jsonl' | 'postgres';

const url = postgresTestUrl();

/** Each store kind with whether this machine can run it (PostgreSQL needs `DATABASE_URL`). */
export const DSH_STORES: readonly { kind: DshStoreKind; skip: boolean }[] = [
  { kind: 'jsonl', skip: false },
  { kind: 'postgres', skip: url === undefined },
];

/** What `dsh export --format <tool> --out DIR` wrote: the new session id and its file. */
export type NativeExport = { id: string; file: string; stderr: string };

/** A stored session forked at a call: the child's id and the text of the closer dsh stored for the call. */
export type ForkAtCall = { child: string; closer: string; closerError: unknown };

/** One store, and `dsh` run on it from `cwd`. */
export type DshStore = AsyncDisposable & {
  kind: DshStoreKind;
  args: string[];
  /** `dsh ARGS` on this store; fails the test on a non-zero exit. */
  dsh(args: readonly string[]): Promise<ToolRun>;
  /** `dsh import FILE`: the id of the (main) session it stored. */
  importFile(file: string): Promise<string>;
  /** `dsh fork ID --at <seq of the tool/call callId>`: the child and the closer it stores for the call. */
  forkAtCall(id: string, callId: string): Promise<ForkAtCall>;
  /** `dsh export ID --format TOOL --out <folder of beside>`: a file the tool's resume finds. */
  exportBeside(id: string, format: NativeTool, beside: string): Promise<NativeExport>;
};

type Event = { seq: number; type: string; data: Record<string, unknown> };
type ToolResultData = { message: { callId: string; content: { type: string; text?: string }[] }; error?: unknown };

/** A fresh, empty store of `kind` under `home` (PostgreSQL: a new schema); `dsh` runs in `cwd`. */
export function makeDshStore(kind: DshStoreKind, home: { home: string; cwd: string }): DshStore {
  let args: string[];
  let drop = (): Promise<void> => Promise.resolve();
  if (kind === 'jsonl') args = ['--data', join(home.home, 'dsh-data')];
  else {
    if (url === undefined) throw new Error('makeDshStore("postgres") needs DATABASE_URL; check DSH_STORES[].skip first');
    const schema = uniqueSchemaName('interop_store');
    const database = new URL(url);
    database.searchParams.set('schema', schema);
    args = ['--database-url', database.toString()];
    drop = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    };
  }
  const dsh = async (command: readonly string[]): Promise<ToolRun> => {
    // DSH_HOME stays empty: only the flags say where the store is.
    const run = await runDsh([...command, ...args], { cwd: home.cwd, env: { DSH_HOME: join(home.home, 'dsh-home') } });
    expect(run.code, `dsh ${command.join(' ')}: ${run.stderr}`).toBe(0);
    return run;
  };
  const events = async (id: string): Promise<Event[]> =>
    (JSON.parse((await dsh(['show', id, '--json'])).stdout) as { events: Event[] }).events;
  return {
    kind,
    args,
    dsh,
    async importFile(file) {
      const imported = await dsh(['import', file, '--json']);
      return (JSON.parse(imported.stdout) as { sessions: { id: string }[] }[])[0]?.sessions[0]?.id ?? '';
    },
    async forkAtCall(id, callId) {
      const call = (await events(id)).find((event) => event.type === 'tool/call' && event.data.callId === callId);
      expect(call, `the stored session holds the call ${callId}`).toBeDefined();
      const forked = JSON.parse((await dsh(['fork', id, '--at', String(call?.seq), '--json'])).stdout) as {
        sessionId: string;
        forkCut: number;
      };
      expect(forked.forkCut).toBe(call?.seq);
      const results = (await events(forked.sessionId))
        .filter((event) => event.type === 'tool/result')
        .map((event) => event.data as unknown as ToolResultData);
      const closer = results.filter((data) => data.message.callId === callId);
      expect(closer, 'the child stores one closer for the open call').toHaveLength(1);
      const text = closer[0]?.message.content.map((part) => part.text ?? '').join('') ?? '';
      return { child: forked.sessionId, closer: text, closerError: closer[0]?.error };
    },
    async exportBeside(id, format, beside) {
      const exported = await dsh(['export', id, '--format', format, '--out', dirname(beside)]);
      const childId = exported.stdout.trim();
      const into = /into (\S+\.jsonl)\n/.exec(exported.stderr)?.[1] ?? '';
      expect(into.startsWith(`${dirname(beside)}/`), exported.stderr).toBe(true);
      expect(into).toContain(childId);
      return { id: childId, file: into, stderr: exported.stderr };
    },
    [Symbol.asyncDispose]: drop,
  };
}
