// SIGKILL of `migrate --write`'s rewrite (rewriteLogFile) right after each of its steps: while the
// temp file is half-written, once it is fsynced, once the backup is kept, after the rename (before
// the directory fsync), after the directory fsync — and a run left to finish. Every acknowledged
// event survives, nothing is half-written, and the session opens and takes appends afterwards.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CURRENT_FORMAT_VERSION, decodeJsonl, type SessionEvent } from 'dsh-codec';
import { openSessionStore, type RewriteStep } from 'dsh-session';
import { faultTrials, makeTempDir, reportFaults } from '@dsh/test-utils';

const STEPS: (RewriteStep | 'none')[] = [
  'lease-taken',
  'temp-partly-written',
  'temp-synced',
  'backup-kept',
  'renamed',
  'directory-synced',
  'none',
];
const REPLACED_FROM = STEPS.indexOf('renamed');
const BACKUP_FROM = STEPS.indexOf('backup-kept');

// Two legacy logs from the codec's golden fixtures: a V3 log (LF) and a V0 log with CR-only line ends.
const fixtureDir = join(import.meta.dirname, '..', '..', '..', 'dsh-codec', 'src', '__fixtures__');
const LOGS = [
  { id: decodeJsonl(readFileSync(join(fixtureDir, 'v3-session.jsonl'), 'utf8')).header.id, source: join(fixtureDir, 'v3-session.jsonl') },
  { id: 'legacy-v0', source: join(fixtureDir, 'line-endings', 'v0-session.cr.jsonl') },
];

const figures = { trials: 0, acknowledged: 0, lost: 0, halfWritten: 0, replaced: 0, kept: 0 };
afterAll(() => {
  reportFaults('kill9-migrate-steps', figures);
});

function runUntil(file: string, step: RewriteStep | 'none'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const child = spawn(
    process.execPath,
    ['--conditions=@dsh/source', '--import', 'tsx', join(import.meta.dirname, '..', '__fixtures__', 'rewrite-process.ts'), file, step],
    {
      cwd: join(import.meta.dirname, '..', '..'),
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
    }),
  );
}

/** How many of `expected` are not in `events` at their seq, byte for byte. */
function missing(expected: readonly SessionEvent[], events: readonly SessionEvent[]): number {
  return expected.filter((event) => JSON.stringify(events[event.seq]) !== JSON.stringify(event)).length;
}

describe('SIGKILL at each step of migrate --write', { timeout: 900_000 }, () => {
  it.each(STEPS.map((step, index) => ({ step, index })))(
    'after $step: every acknowledged event survives, nothing is half-written',
    async ({ step, index }) => {
      const dir = await makeTempDir();
      try {
        for (let trial = 0; trial < faultTrials(2, 10); trial += 1) {
          const { id, source } = LOGS[trial % LOGS.length] as (typeof LOGS)[number];
          const file = join(dir.path, `${id}.jsonl`);
          await copyFile(source, file);
          const original = await readFile(file, 'utf8');
          const acknowledged = decodeJsonl(original, { sessionId: id }).events;

          const exit = await runUntil(file, step);
          expect(exit.signal).toBe(step === 'none' ? null : 'SIGKILL');
          figures.trials += 1;
          figures.acknowledged += acknowledged.length;

          const text = await readFile(file, 'utf8');
          let events: readonly SessionEvent[] = [];
          try {
            const decoded = decodeJsonl(text, { sessionId: id });
            if (decoded.tornTail !== undefined) figures.halfWritten += 1;
            events = decoded.events;
          } catch {
            figures.halfWritten += 1;
          }
          figures.lost += missing(acknowledged, events);
          // Before the rename the log is the original byte for byte; from it on, the migrated log.
          if (index < REPLACED_FROM) {
            expect(text).toBe(original);
            figures.kept += 1;
          } else {
            expect(decodeJsonl(text).sourceVersion).toBe(CURRENT_FORMAT_VERSION);
            figures.replaced += 1;
          }
          const names = await readdir(dir.path);
          if (index >= BACKUP_FROM) expect(await readFile(`${file}.bak`, 'utf8')).toBe(original);
          else expect(names).not.toContain(`${id}.jsonl.bak`);

          // A store removes the killed writer's temp files, takes its lease over, and appends.
          const store = await openSessionStore({ dir: dir.path });
          expect((await readdir(dir.path)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
          const session = await store.open(id);
          const appended = session.append('session/title', { title: `after ${step}` });
          await session.flush();
          await store.close();
          figures.acknowledged += 1;
          const reopened = decodeJsonl(await readFile(file, 'utf8'), { sessionId: id }).events;
          figures.lost += missing([...acknowledged, appended], reopened);
          for (const name of await readdir(dir.path)) if (name.startsWith(id)) await rm(join(dir.path, name));
        }
        expect(figures.lost).toBe(0);
        expect(figures.halfWritten).toBe(0);
      } finally {
        await dir.remove();
      }
    },
  );
});
