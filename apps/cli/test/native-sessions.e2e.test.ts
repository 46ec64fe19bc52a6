/**
 * A Claude Code, Codex or pi user's own sessions, by id: `dsh sessions --claude|--codex|--pi` lists
 * them from the tools' folders ($CLAUDE_CONFIG_DIR, ~/.claude, $CODEX_HOME, $PI_CODING_AGENT_DIR),
 * and `dsh show|export|fork ID` reads that file when no dsh session has the id — in a JSONL data
 * directory and on PostgreSQL; `dsh show ID` says whether the file has calls open at its end.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeCodeTranscript, codexTranscript, makeTempDir, piTranscript, runDsh, type TempDir } from '@dsh/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_STORES, makeTestStore, type TestStore } from './test-store.js';

const CLAUDE_ID = '5f0c3a52-1111-4222-8333-444455556666';
const CODEX_ID = '019e2000-1111-7222-8333-444455556666';
const PI_ID = '019e3000-2222-7333-8444-555566667777';

let dir: TempDir;
let env: Record<string, string>;
let files: { claude: string; codex: string; pi: string };

beforeEach(async () => {
  dir = await makeTempDir('dsh-native-sessions-');
  const home = join(dir.path, 'home');
  const claudeFolder = join(home, '.claude', 'projects', '-work-app');
  const codexFolder = join(dir.path, 'codex-home', 'sessions', '2026', '01', '02');
  const piFolder = join(dir.path, 'pi-agent', 'sessions', '--work-app--');
  for (const folder of [claudeFolder, codexFolder, piFolder]) await mkdir(folder, { recursive: true });
  files = {
    claude: join(claudeFolder, `${CLAUDE_ID}.jsonl`),
    codex: join(codexFolder, `rollout-2026-01-02T10-00-00-${CODEX_ID}.jsonl`),
    pi: join(piFolder, `2026-01-02T10-00-00-000Z_${PI_ID}.jsonl`),
  };
  await writeFile(files.claude, claudeCodeTranscript({ turns: 2, sessionId: CLAUDE_ID }).text);
  await writeFile(files.codex, codexTranscript({ turns: 2 }).text);
  await writeFile(files.pi, piTranscript({ turns: 2 }).text);
  // Claude Code from HOME (~/.claude), Codex and pi from their variables.
  env = {
    HOME: home,
    CODEX_HOME: join(dir.path, 'codex-home'),
    PI_CODING_AGENT_DIR: join(dir.path, 'pi-agent'),
    DSH_HOME: join(dir.path, 'dsh'),
  };
});
afterEach(async () => {
  await dir.remove();
});

it("dsh sessions --claude|--codex|--pi lists each tool's sessions with id, cwd, title and file", { timeout: 120_000 }, async () => {
  for (const [tool, id] of [
    ['claude', CLAUDE_ID],
    ['codex', CODEX_ID],
    ['pi', PI_ID],
  ] as const) {
    const listed = await runDsh(['sessions', `--${tool}`, '--json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const items = JSON.parse(listed.stdout) as { id: string; file: string; cwd?: string; title?: string; updatedAt: string }[];
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id, file: files[tool] });
    expect(items[0]?.cwd).toMatch(/^\/work\/app/);
    expect(items[0]?.title).toBeTruthy();
    const text = await runDsh(['sessions', `--${tool}`], { env });
    expect(text.stdout.split('\n')[0]).toMatch(/^ID +UPDATED +CWD +TITLE +FILE$/);
    expect(text.stdout).toContain(files[tool]);
  }
  const empty = await runDsh(['sessions', '--claude'], { env: { ...env, CLAUDE_CONFIG_DIR: join(dir.path, 'nowhere') } });
  expect(empty.stdout).toBe(`no claude sessions in ${join(dir.path, 'nowhere', 'projects')}\n`);
  const both = await runDsh(['sessions', '--claude', '--pi'], { env });
  expect(both.code).toBe(2);
  expect(both.stderr).toContain('received --claude and --pi');
});

for (const { kind, skip } of TEST_STORES) {
  describe.skipIf(skip)(`with a ${kind} store`, () => {
    let store: TestStore;
    beforeEach(async () => {
      store = await makeTestStore(kind);
      env = { ...env, ...store.env };
    });
    afterEach(async () => {
      await store[Symbol.asyncDispose]();
    });

    it(
      "dsh show|export|fork ID read the tool's file when no dsh session has the id; once imported, the dsh session is used",
      { timeout: 180_000 },
      async () => {
        const shown = await runDsh(['show', CODEX_ID], { env });
        expect(shown.code, shown.stderr).toBe(0);
        expect(shown.stdout).toContain(`not stored in dsh: the codex session file ${files.codex}`);
        const fromFile = await runDsh(['export', CLAUDE_ID, '--format', 'messages'], { env });
        expect(fromFile.code, fromFile.stderr).toBe(0);

        const forked = await runDsh(['fork', PI_ID, '--at', 'seq:5', '--json'], { env });
        expect(forked.code, forked.stderr).toBe(0);
        const child = JSON.parse(forked.stdout) as { file: string; parent_session: string; cut: number };
        expect(child).toMatchObject({ parent_session: PI_ID, cut: 5 });
        expect((await readdir(join(dir.path, 'pi-agent', 'sessions', '--work-app--'))).length).toBe(2);
        expect(child.file.startsWith(join(dir.path, 'pi-agent', 'sessions', '--work-app--'))).toBe(true);

        expect((await runDsh(['import', files.claude], { env })).code).toBe(0);
        const fromStore = await runDsh(['export', CLAUDE_ID, '--format', 'messages'], { env });
        expect(fromStore.stdout).toBe(fromFile.stdout);
        const storedShow = await runDsh(['show', CLAUDE_ID], { env });
        expect(storedShow.stdout).not.toContain('not stored in dsh');
        const storedFork = await runDsh(['fork', CLAUDE_ID, '--json'], { env });
        expect(storedFork.code, storedFork.stderr).toBe(0);
        expect(JSON.parse(storedFork.stdout)).toMatchObject({ parentSession: CLAUDE_ID });
        expect(await readdir(join(dir.path, 'home', '.claude', 'projects', '-work-app'))).toEqual([`${CLAUDE_ID}.jsonl`]);
      },
    );

    it(
      'dsh show <tool session id> reports needsRepair exactly when the file ends with calls without results, names them and the dsh repair that closes them',
      { timeout: 180_000 },
      async () => {
        for (const [tool, id] of [
          ['claude', CLAUDE_ID],
          ['codex', CODEX_ID],
          ['pi', PI_ID],
        ] as const) {
          const whole = JSON.parse((await runDsh(['show', id, '--json'], { env })).stdout) as { needsRepair: boolean };
          expect(whole.needsRepair, tool).toBe(false);
          expect((await runDsh(['show', id], { env })).stdout, tool).not.toContain('needs repair');
        }
        await writeFile(files.claude, claudeCodeTranscript({ turns: 2, sessionId: CLAUDE_ID, endMidCall: true }).text);
        await writeFile(files.codex, codexTranscript({ turns: 2, endMidCall: true }).text);
        await writeFile(files.pi, piTranscript({ turns: 2, endMidCall: true }).text);
        const open = { claude: 2, codex: 1, pi: 1 };
        for (const [tool, id] of [
          ['claude', CLAUDE_ID],
          ['codex', CODEX_ID],
          ['pi', PI_ID],
        ] as const) {
          const shown = await runDsh(['show', id, '--json'], { env });
          expect(shown.code, shown.stderr).toBe(0);
          expect((JSON.parse(shown.stdout) as { needsRepair: boolean }).needsRepair, tool).toBe(true);
          const text = await runDsh(['show', id], { env });
          expect(text.stdout, tool).toContain(`needs repair: its last step has ${String(open[tool])} call(s) without a result (`);
          expect(text.stdout, tool).toContain(`\`dsh repair ${files[tool]}\` closes them with dsh's interrupted result`);

          const repaired = await runDsh(['repair', files[tool]], { env });
          expect(repaired.code, repaired.stderr).toBe(0);
          expect(repaired.stderr, tool).toContain(`${String(open[tool])} call(s) closed`);
          const after = JSON.parse((await runDsh(['show', id, '--json'], { env })).stdout) as { needsRepair: boolean };
          expect(after.needsRepair, tool).toBe(false);
        }
      },
    );
  });
}
