/**
 * SPEC §23 "Codex and pi" against the real pi 0.73.1 (pinned, offline, fake model server): pi runs no
 * command hooks, so `dsh hooks install pi --user` writes dsh's one extension file in pi's extensions
 * folder; pi loads it in `-p` mode and its `tool_call` / `tool_result` handlers run `dsh checkpoint
 * --from pi` with the session file's toolCall ids. `dsh fork FILE --at <first call> --worktree` gives a
 * child (beside FILE) whose directory holds the files before that call; `pi --session CHILD` reads
 * them, and nothing it writes reaches the original folder. `dsh hooks remove pi` deletes exactly that file.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { printSkip, runDsh, scriptReplies, startModelServer } from '@dsh/test-utils';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { findSessionFiles, installTool, interopSkipReason, jsonlLines, makeInteropHome, runTool, toolEnvironment } from '../src/index.js';
import { expectCheckpointedCalls, forkWorktreeBefore } from './worktree-fork-steps.js';
import { anthropicResults, textOf } from './request-readers.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop pi workspace', skip);

type PiLine = { type?: string; id?: string; cwd?: string; message?: { role?: string; content?: unknown } };

const PI_FLAGS = ['--provider', 'fake', '--model', 'fake-model'];

/** The id of the entry holding the assistant message that made call `callId`. */
function entryOfCall(lines: readonly PiLine[], callId: string): string | undefined {
  return lines.find(
    (line) =>
      line.message?.role === 'assistant' &&
      Array.isArray(line.message.content) &&
      (line.message.content as { type?: string; id?: string }[]).some((block) => block.type === 'toolCall' && block.id === callId),
  )?.id;
}

describe.skipIf(skip !== undefined)("pi with dsh's extension: the workspace at the cut (real pi 0.73.1, offline)", () => {
  it('the extension checkpoints each call by its toolCallId; a --worktree fork at the first call resumes on the files before it', async () => {
    await installTool('pi');
    await using home = await makeInteropHome();
    const data = join(home.home, 'dsh-data');
    const story = join(home.cwd, 'story.txt');
    await writeFile(story, 'one\n');
    const script = scriptReplies([
      { toolCalls: [{ id: 'call_edit_1', name: 'bash', input: { command: 'echo two > story.txt' } }] },
      { toolCalls: [{ id: 'call_edit_2', name: 'bash', input: { command: 'echo three >> story.txt' } }] },
      { text: 'Edited twice.' },
      { toolCalls: [{ id: 'call_child_read', name: 'bash', input: { command: 'cat story.txt; echo child > child.txt' } }] },
      { text: 'Child read it.' },
    ]);
    await using server = await startModelServer({ anthropic: script });
    const { env, sessionsDir, configDir } = await toolEnvironment('pi', { home: home.home, server: server.origin });

    const installed = await runDsh(['hooks', 'install', 'pi', '--user', '--data', data, '--json'], { cwd: home.cwd, env });
    expect(installed.code, installed.stderr).toBe(0);
    const extension = join(configDir, 'extensions', 'dsh-checkpoints.ts');
    expect(JSON.parse(installed.stdout)).toMatchObject({ extension, added: 1 });

    const first = await runTool('pi', [...PI_FLAGS, '-p', 'edit the story'], { cwd: home.cwd, env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toContain('dsh checkpoint');
    expect(await readFile(story, 'utf8')).toBe('two\nthree\n');
    const [file = ''] = await findSessionFiles(sessionsDir);
    const lines = (await jsonlLines(file)) as PiLine[];
    const sessionId = String(lines[0]?.id);

    await expectCheckpointedCalls({ data, folder: 'pi-checkpoints', sessionId, cwd: home.cwd }, ['call_edit_1', 'call_edit_2']);

    // The cut: the entry of the first call. Its tool_call checkpoint holds the files before it ran.
    const at = entryOfCall(lines, 'call_edit_1') ?? '';
    const child = await forkWorktreeBefore(file, at, 'call_edit_1', { data, cwd: home.cwd, env });
    expect(dirname(child.file)).toBe(dirname(file));
    expect(child.resume).toBe(`cd ${child.worktree.dir} && pi --session ${child.file}`);
    expect(await readFile(join(child.worktree.dir, 'story.txt'), 'utf8')).toBe('one\n');
    const childLines = (await jsonlLines(child.file)) as PiLine[];
    expect(childLines[0]).toMatchObject({ type: 'session', id: child.session_id, cwd: child.worktree.dir });

    // pi resumes the child in its header's directory: the model is told the directory moved and that
    // the open call's files are from before it; the call reads the files of the cut and writes there.
    const before = server.modelRequests('anthropic').length;
    const resumed = await runTool('pi', [...PI_FLAGS, '--session', child.file, '-p', 'read the story'], {
      cwd: child.worktree.dir,
      env,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    const requests = server.modelRequests('anthropic').slice(before);
    const firstRequest = JSON.stringify(requests[0] ?? {});
    expect(firstRequest).toContain("This session's working directory has moved");
    expect(firstRequest).toContain(JSON.stringify(FORKED_WORKSPACE_AT_CUT_SENTENCE).slice(1, -1));
    expect(firstRequest).toContain(JSON.stringify(child.worktree.dir).slice(1, -1));
    const read = textOf(anthropicResults(requests.at(-1), 'call_child_read')[0]?.content);
    expect(read).toContain('one');
    expect(read).not.toContain('two');
    expect(await readFile(join(child.worktree.dir, 'child.txt'), 'utf8')).toBe('child\n');
    expect(await readFile(story, 'utf8')).toBe('two\nthree\n');
    expect(existsSync(join(home.cwd, 'child.txt'))).toBe(false);
    expect(server.proxied).toEqual([]);

    // Remove deletes exactly dsh's file; pi's own files in the folder stay.
    await writeFile(join(configDir, 'extensions', 'mine.ts'), 'export default function () {}\n');
    const removed = await runDsh(['hooks', 'remove', 'pi', '--user', '--data', data, '--json'], { cwd: home.cwd, env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ extension, removed: 1 });
    expect(await readdir(join(configDir, 'extensions'))).toEqual(['mine.ts']);
  });

  it("a dsh that cannot checkpoint never stands in pi's way: the call runs, its result is unchanged, one note on stderr", async () => {
    await installTool('pi');
    await using home = await makeInteropHome();
    // The data folder is a regular file: every checkpoint fails inside dsh.
    const data = join(home.home, 'not-a-folder');
    await writeFile(data, 'a file\n');
    const script = scriptReplies([
      { toolCalls: [{ id: 'call_write', name: 'bash', input: { command: 'echo written > out.txt; echo ran' } }] },
      { text: 'Done.' },
    ]);
    await using server = await startModelServer({ anthropic: script });
    const { env } = await toolEnvironment('pi', { home: home.home, server: server.origin });
    const installed = await runDsh(['hooks', 'install', 'pi', '--project', home.cwd, '--data', data], { cwd: home.cwd, env });
    expect(installed.code, installed.stderr).toBe(0);

    const run = await runTool('pi', [...PI_FLAGS, '-p', 'write it'], { cwd: home.cwd, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('Done.');
    expect(await readFile(join(home.cwd, 'out.txt'), 'utf8')).toBe('written\n');
    expect(run.stderr).toContain('dsh checkpoint: no checkpoint taken (');
    expect(run.stderr).toContain('pi goes on');
    const requests = server.modelRequests('anthropic');
    expect(textOf(anthropicResults(requests.at(-1), 'call_write')[0]?.content)).toContain('ran');
  });
});
