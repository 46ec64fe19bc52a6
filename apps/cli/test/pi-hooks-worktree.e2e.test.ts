/**
 * SPEC §23 "Codex and pi" for pi through the real bin, without pi itself (the real pi 0.73.1 is in
 * tooling/interop/test/pi-workspace.test.ts): `dsh hooks install|remove pi` writes and deletes exactly
 * dsh's one extension file, never a file it did not write; `dsh checkpoint --from pi` fed what that
 * extension sends (hostile input refused with exit 0); `dsh fork PI_FILE --at REF --worktree` — the files
 * at REF, the child beside the file with its header's cwd moved and the model told.
 */
import { lstat, mkdir, readdir, readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from 'dsh-codec';
import { useCliTestDirs } from './cli-test-dirs.js';
import { runDsh } from '@dsh/test-utils';

const dirs = useCliTestDirs('dsh-cli-pi-hooks', { work: true });

const SESSION = '019af3c2-7d10-7000-8000-0123456789ab';

type Line = { type: string; id?: string; parentId?: string | null; cwd?: string; message?: Record<string, unknown> };

/** A pi 0.73 session file (version 3) in `cwd`: a prompt, one bash call (call_edit), its result, an answer. */
function piSession(cwd: string): string {
  const time = '2026-12-07T06:00:00.000Z';
  const lines: Line[] = [
    { type: 'session', version: 3, id: SESSION, timestamp: time, cwd } as Line,
    { type: 'message', id: 'a0000001', parentId: null, message: { role: 'user', content: [{ type: 'text', text: 'fix the note' }] } },
    {
      type: 'message',
      id: 'a0000002',
      parentId: 'a0000001',
      message: { role: 'assistant', content: [{ type: 'toolCall', id: 'call_edit', name: 'bash', arguments: { command: 'edit' } }] },
    },
    {
      type: 'message',
      id: 'a0000003',
      parentId: 'a0000002',
      message: {
        role: 'toolResult',
        toolCallId: 'call_edit',
        toolName: 'bash',
        content: [{ type: 'text', text: 'updated' }],
        isError: false,
      },
    },
    { type: 'message', id: 'a0000004', parentId: 'a0000003', message: { role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] } },
  ];
  return lines.map((line) => `${JSON.stringify({ timestamp: time, ...line })}\n`).join('');
}

/** What dsh's extension sends for `type` of call_edit. */
async function extensionEvent(type: 'tool_call' | 'tool_result', cwd: string): Promise<void> {
  const input = { type, toolCallId: 'call_edit', toolName: 'bash', cwd, sessionId: SESSION, sessionFile: null };
  const result = await runDsh(['checkpoint', '--from', 'pi', '--data', dirs.data.path], { stdin: JSON.stringify(input) });
  expect(result).toMatchObject({ code: 0, stderr: '', stdout: '' });
}

async function writeSession(cwd: string): Promise<string> {
  const folder = join(dirs.data.path, 'pi-agent', 'sessions', '--work--');
  await mkdir(folder, { recursive: true });
  const file = join(folder, `2026-12-07T06-00-00-000Z_${SESSION}.jsonl`);
  await writeFile(file, piSession(cwd));
  return file;
}

type ForkJson = {
  session_id: string;
  file: string;
  workspace: string;
  worktree: { dir: string; branch?: string; checkpoint?: { hook_event_name: string; tool_use_id: string } };
  warning?: string;
  resume: string;
};

function readLines(text: string): Line[] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

describe('dsh hooks install|remove pi', () => {
  it("writes dsh's one extension file in the project's .pi/extensions, says pi loads it unreviewed, removes exactly it", async () => {
    const folder = join(dirs.work.path, '.pi', 'extensions');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'mine.ts'), 'export default function () {}\n');
    const args = ['hooks', 'install', 'pi', '--project', dirs.work.path, '--data', dirs.data.path];
    const first = await runDsh([...args, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const answer = JSON.parse(first.stdout) as { extension: string; command: string; added: number; load: string };
    expect(answer).toMatchObject({ extension: join(folder, 'dsh-checkpoints.ts'), added: 1 });
    expect(answer.load).toContain('without a review step');
    expect(answer.command).toContain(`checkpoint --from pi --data ${dirs.data.path}`);
    const source = await readFile(answer.extension, 'utf8');
    expect(source).toMatch(/^\/\/ Written by `dsh hooks install pi`/);
    expect(source).toContain(JSON.stringify(dirs.data.path));
    expect(source).toContain("pi.on('tool_call'");
    expect(source).toContain("pi.on('tool_result'");
    expect((await lstat(answer.extension)).mode & 0o777).toBe(0o644);

    const again = await runDsh(args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already installed: nothing changed');
    // Another data folder: dsh's own file is replaced by one that names it.
    const other = join(dirs.data.path, 'other');
    const replaced = await runDsh(['hooks', 'install', 'pi', '--project', dirs.work.path, '--data', other, '--json']);
    expect(JSON.parse(replaced.stdout)).toMatchObject({ added: 1, replaced: true });
    expect(await readFile(answer.extension, 'utf8')).toContain(JSON.stringify(other));

    const removed = await runDsh(['hooks', 'remove', 'pi', '--project', dirs.work.path, '--json']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ removed: 1 });
    expect(await readdir(folder)).toEqual(['mine.ts']);
    const none = await runDsh(['hooks', 'remove', 'pi', '--project', dirs.work.path]);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain('no dsh extension there: nothing changed');
  });

  it('never overwrites or removes a file dsh did not write, one edited since, or a symlink at its name', async () => {
    const agentDir = join(dirs.data.path, 'pi-agent');
    const env = { PI_CODING_AGENT_DIR: agentDir };
    const path = join(agentDir, 'extensions', 'dsh-checkpoints.ts');
    const args = (action: string): string[] => ['hooks', action, 'pi', '--user', '--data', dirs.data.path];

    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, '// my own checkpoints\nexport default function () {}\n');
    for (const action of ['install', 'remove']) {
      const refused = await runDsh(args(action), { env });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('TARGET_EXISTS');
      expect(refused.stderr).toContain('not written by dsh, or edited since');
      expect(await readFile(path, 'utf8')).toBe('// my own checkpoints\nexport default function () {}\n');
    }

    await unlink(path);
    expect((await runDsh(args('install'), { env })).code).toBe(0);
    // Edited by the user after dsh wrote it: it is theirs now.
    const edited = `${await readFile(path, 'utf8')}// my tweak\n`;
    await writeFile(path, edited);
    for (const action of ['install', 'remove']) {
      const refused = await runDsh(args(action), { env });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('TARGET_EXISTS');
      expect(await readFile(path, 'utf8')).toBe(edited);
    }

    // A symlink at dsh's name, even to dsh's own file, is not dsh's file.
    await unlink(path);
    const elsewhere = join(dirs.work.path, 'target.ts');
    await writeFile(elsewhere, 'keep me\n');
    await symlink(elsewhere, path);
    const linked = await runDsh(args('install'), { env });
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain('a symbolic link');
    expect(await readFile(elsewhere, 'utf8')).toBe('keep me\n');
    expect((await lstat(path)).isSymbolicLink()).toBe(true);
    expect(await readdir(dirname(path))).toEqual(['dsh-checkpoints.ts']);
  });
});

describe('dsh checkpoint --from pi', () => {
  it("refuses hostile extension input with a note and exit 0, recording nothing; Claude Code's field names are not pi's", async () => {
    const base = { type: 'tool_call', sessionId: SESSION, cwd: dirs.work.path, toolCallId: 'call_1' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, type: 'turn_start' }, 'expected type tool_call or tool_result'],
      [{ ...base, cwd: 'relative/dir' }, 'expected cwd to be an absolute path'],
      [{ ...base, sessionId: '../../etc/passwd' }, 'expected sessionId to be a session id'],
      [{ ...base, toolCallId: 'call\n{"forged":true}' }, 'expected toolCallId to be a call id'],
      [{ ...base, cwd: join(dirs.work.path, 'gone') }, 'NO_WORKSPACE'],
      [{ session_id: SESSION, cwd: dirs.work.path, hook_event_name: 'PreToolUse', tool_use_id: 'x' }, 'expected "type"'],
    ];
    for (const [input, said] of cases) {
      const result = await runDsh(['checkpoint', '--from', 'pi', '--data', dirs.data.path], { stdin: JSON.stringify(input) });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(said);
      expect(result.stderr).toContain('pi goes on');
    }
    expect(await readdir(join(dirs.data.path, 'pi-checkpoints')).catch(() => [])).toEqual([]);
  });
});

describe('dsh fork PI_FILE --at REF --worktree', () => {
  it('gives the child the files at REF beside the file: before the call at its toolCall entry, after it at its toolResult', async () => {
    const work = dirs.work.path;
    const file = await writeSession(work);
    await extensionEvent('tool_call', work);
    await writeFile(join(work, 'notes.md'), 'remember the oat milk\n');
    await extensionEvent('tool_result', work);
    await writeFile(join(work, 'notes.md'), 'changed after the session\n');
    const index = await readFile(join(dirs.data.path, 'pi-checkpoints', `${SESSION}.jsonl`), 'utf8');
    expect(readLines(index).map((record) => (record as unknown as { hook_event_name: string }).hook_event_name)).toEqual([
      'PreToolUse',
      'PostToolUse',
    ]);

    const before = await runDsh(['fork', file, '--at', 'a0000002', '--worktree', '--data', dirs.data.path, '--json']);
    expect(before.code, before.stderr).toBe(0);
    const child = JSON.parse(before.stdout) as ForkJson;
    expect(child).toMatchObject({
      workspace: 'checkpoint',
      worktree: { checkpoint: { hook_event_name: 'PreToolUse', tool_use_id: 'call_edit' } },
    });
    expect(child.worktree.dir).toMatch(/\/worktrees\/pi-[0-9a-f]{8}$/);
    expect(await readFile(join(child.worktree.dir, 'notes.md'), 'utf8')).toBe('remember the milk\n');
    expect(dirname(child.file)).toBe(dirname(file));
    expect(child.resume).toBe(`cd ${child.worktree.dir} && pi --session ${child.file}`);
    const lines = readLines(await readFile(child.file, 'utf8'));
    expect(lines[0]).toMatchObject({ type: 'session', id: child.session_id, cwd: child.worktree.dir });
    expect(JSON.stringify(lines.slice(0, -1))).not.toContain(JSON.stringify(work));
    // The call open at the cut is closed by dsh, and its closer says the files are from before it.
    const closer = lines.find((line) => line.message?.role === 'toolResult' && line.message.toolCallId === 'call_edit');
    expect(JSON.stringify(closer?.message?.content)).toContain(FORKED_WORKSPACE_AT_CUT_SENTENCE);
    const note = lines.at(-1);
    expect(note).toMatchObject({ type: 'message', parentId: closer?.id, message: { role: 'user' } });
    expect(note?.id).toMatch(/^[0-9a-f]{8}$/);
    expect(JSON.stringify(note?.message)).toContain(
      JSON.stringify(
        `the inherited history ran in ${JSON.stringify(work)}, and this branch runs in ${JSON.stringify(child.worktree.dir)}`,
      ).slice(1, -1),
    );

    const after = await runDsh(['fork', file, '--at', 'a0000004', '--worktree', '--data', dirs.data.path]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain('PostToolUse checkpoint of call_edit');
    const resumeLine = /resume it with: cd (\S+) && pi --session (\S+)/.exec(after.stderr);
    expect(resumeLine?.[2]).toContain(after.stdout.trim());
    expect(await readFile(join(resumeLine?.[1] ?? '', 'notes.md'), 'utf8')).toBe('remember the oat milk\n');
    expect(await readFile(join(work, 'notes.md'), 'utf8')).toBe('changed after the session\n');
    expect(await readdir(join(dirs.data.path, 'worktrees', '.forks'))).toEqual([]);
  });

  it('without a checkpoint outside git: refused NOT_A_GIT_REPOSITORY, nothing made', async () => {
    const file = await writeSession(dirs.work.path);
    const result = await runDsh(['fork', file, '--at', 'a0000002', '--worktree', '--data', dirs.data.path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('NOT_A_GIT_REPOSITORY');
    expect(result.stderr).toContain('dsh hooks install pi');
    expect(await readdir(dirname(file))).toEqual([`2026-12-07T06-00-00-000Z_${SESSION}.jsonl`]);
    expect(await readdir(join(dirs.data.path, 'worktrees')).catch(() => [])).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/^pi-/)]),
    );
  });
});
