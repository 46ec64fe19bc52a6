/**
 * SPEC §18 through the real bin, on a JSONL data directory and on PostgreSQL: `dsh import` of the
 * tools' files (a Claude Code subagent file before its main session, never `SESSION_EXISTS`), then
 * `dsh export ID --format claude-code|codex|pi --out DIR` of what the store holds, whose import back
 * into the same store has the same model-visible history (`dsh export --format messages`).
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeCodeTranscript, codexTranscript, makeTempDir, piTranscript, runDsh, type TempDir } from '@dsh/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_STORES, makeTestStore, type TestStore } from './test-store.js';

type Imported = { sessions: { id: string; parentSession: string | null }[] }[];

let work: TempDir;
beforeEach(async () => {
  work = await makeTempDir('dsh-native-export-');
});
afterEach(async () => {
  await work.remove();
});

for (const { kind, skip } of TEST_STORES) {
  describe.skipIf(skip)(`with a ${kind} store`, () => {
    let store: TestStore;
    beforeEach(async () => {
      store = await makeTestStore(kind);
    });
    afterEach(async () => {
      await store[Symbol.asyncDispose]();
    });

    /** `dsh ARGS` on this store; fails the test on a non-zero exit. */
    async function dsh(args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
      const run = await runDsh([...args, ...store.args], { cwd: work.path });
      expect(run.code, `dsh ${args.join(' ')}: ${run.stderr}`).toBe(0);
      return run;
    }

    it(
      'dsh import of a subagent file then its main session, each linked and titled, with no SESSION_EXISTS',
      { timeout: 180_000 },
      async () => {
        const mainFile = join(work.path, '5f0c3a52.jsonl');
        const agentFile = join(work.path, 'agent-a77aa77.jsonl');
        await writeFile(mainFile, claudeCodeTranscript({ turns: 2, spawnsAgent: 'a77aa77' }).text);
        await writeFile(agentFile, claudeCodeTranscript({ turns: 2, agentId: 'a77aa77' }).text);
        const agent = JSON.parse((await dsh(['import', agentFile, '--json'])).stdout) as Imported;
        const main = JSON.parse((await dsh(['import', mainFile, '--json'])).stdout) as Imported;
        expect([agent[0]?.sessions[0]?.id, main[0]?.sessions[0]?.id]).toEqual([
          '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d-agent-a77aa77',
          '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d',
        ]);
        const rows = JSON.parse((await dsh(['sessions', '--json'])).stdout) as { id: string; title?: string }[];
        expect(rows.map((row) => row.id).sort()).toEqual([
          '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d',
          '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d-agent-a77aa77',
        ]);
        expect(rows.map((row) => typeof row.title)).toEqual(['string', 'string']);
        const again = await runDsh(['import', agentFile, ...store.args], { cwd: work.path });
        expect(again.code).toBe(1);
        expect(again.stderr).toContain('SESSION_EXISTS');
      },
    );

    it(
      "dsh export ID --format claude-code|codex|pi of an imported session writes the tool's file, whose import has the same history",
      { timeout: 300_000 },
      async () => {
        const sources = [
          { name: 'claude.jsonl', text: claudeCodeTranscript({ turns: 2 }).text, target: 'pi', resume: 'pi --session ' },
          { name: 'pi.jsonl', text: piTranscript({ turns: 2 }).text, target: 'claude-code', resume: 'claude --resume ' },
          { name: 'rollout.jsonl', text: codexTranscript({ turns: 2 }).text, target: 'codex', resume: 'codex exec resume ' },
        ] as const;
        for (const source of sources) {
          const file = join(work.path, source.name);
          await writeFile(file, source.text);
          const id = (JSON.parse((await dsh(['import', file, '--json'])).stdout) as Imported)[0]?.sessions[0]?.id ?? '';
          const out = join(work.path, `out-${source.target}`);
          await mkdir(out);
          const exported = await dsh(['export', id, '--format', source.target, '--out', out]);
          const childId = exported.stdout.trim();
          const [written = ''] = await readdir(out);
          expect(written, source.target).toContain(childId);
          expect(exported.stderr, source.target).toContain(`resume it with: ${source.resume}`);

          const back = (JSON.parse((await dsh(['import', join(out, written), '--json'])).stdout) as Imported)[0]?.sessions[0]?.id ?? '';
          expect(back, source.target).toBe(childId);
          const before = JSON.parse((await dsh(['export', id, '--format', 'messages'])).stdout) as unknown[];
          const after = JSON.parse((await dsh(['export', back, '--format', 'messages'])).stdout) as unknown[];
          expect(before.length, source.target).toBeGreaterThan(2);
          expect(after, `${source.name} → ${source.target} → back`).toEqual(before);
        }
      },
    );
  });
}
