import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hintCommand, makeTempDir, printJson, runDsh, runPrinted } from '@dsh/test-utils';
import { openSessionStore } from 'dsh-host';
import { useCliTestDirs } from './cli-test-dirs.js';

const dirs = useCliTestDirs('dsh-cli', { work: true });

type Event = { seq: number; type: string; data: Record<string, unknown> };

async function events(ref: string): Promise<Event[]> {
  const shown = await runDsh(['show', ref, '--json', '--data', dirs.data.path]);
  expect(shown.code).toBe(0);
  return (JSON.parse(shown.stdout) as { events: Event[] }).events;
}

describe('dsh print mode: the fork-peers story, end to end through the real CLI', () => {
  it('named baseline → two peer forks → resuming a peer continues it; the baseline is unchanged', { timeout: 180_000 }, async () => {
    const opts = { cwd: dirs.work.path };
    const baseline = await printJson(['-p', 'hello', '--name', 'baseline', '--data', dirs.data.path], opts);
    expect(baseline).toMatchObject({ sessionId: expect.any(String), result: expect.any(String), isError: false });
    expect(baseline.parentSession).toBeUndefined();
    const before = await events('baseline');

    const peerA = await printJson(
      ['-p', 'list files', '--resume', 'baseline', '--fork-session', '--name', 'peer-a', '--data', dirs.data.path],
      opts,
    );
    const peerB = await printJson(
      ['-p', 'read notes.md', '--resume', 'baseline', '--fork-session', '--name', 'peer-b', '--data', dirs.data.path],
      opts,
    );
    expect(peerA).toMatchObject({ parentSession: baseline.sessionId, isError: false });
    expect(peerB).toMatchObject({ parentSession: baseline.sessionId, isError: false });
    expect(peerA.sessionId).not.toBe(peerB.sessionId);
    expect(peerA.result).toContain('notes.md');
    expect(peerB.result).toContain('remember the milk');

    const resumed = await printJson(['-p', 'list files', '--resume', 'peer-a', '--data', dirs.data.path], opts);
    expect(resumed.sessionId).toBe(peerA.sessionId);
    expect(resumed.parentSession).toBeUndefined();
    const peerEvents = await events('peer-a');
    expect(peerEvents.filter((event) => event.type === 'turn/start').map((event) => event.data.turn)).toEqual([1, 2, 3]);

    expect(await events('baseline')).toEqual(before);
    expect(await events(String(baseline.sessionId))).toEqual(before);

    const tree = await runDsh(['sessions', '--tree', '--data', dirs.data.path]);
    expect(tree.code).toBe(0);
    const lines = tree.stdout.trimEnd().split('\n');
    expect(lines[0]).toContain(String(baseline.sessionId));
    expect(lines.slice(1).join('\n')).toMatch(/[├└]─ peer-/);
    expect(lines).toHaveLength(3);
  });

  it('prints the answer as text, with the session id on stderr', { timeout: 60_000 }, async () => {
    const result = await runDsh(['-p', 'list files', '--data', dirs.data.path], { cwd: dirs.work.path });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('notes.md');
    expect(result.stderr).toMatch(/^dsh: session [\w-]+/);
  });

  it('forks exactly at --resume-at and refuses a seq outside the session with INVALID_CUT', { timeout: 90_000 }, async () => {
    const base = await printJson(['-p', 'read notes.md', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
    const toolCall = (await events('base')).find((event) => event.type === 'tool/call')!;
    const child = await printJson(
      ['-p', 'continue', '--resume', 'base', '--fork-session', '--resume-at', String(toolCall.seq), '--data', dirs.data.path],
      { cwd: dirs.work.path },
    );
    expect(child).toMatchObject({ parentSession: base.sessionId, forkCut: toolCall.seq });
    const childEvents = await events(String(child.sessionId));
    expect(childEvents[toolCall.seq + 2]).toMatchObject({ type: 'tool/result', data: { error: { code: 'TOOL_OUTCOME_UNKNOWN' } } });

    const bad = await runDsh(['-p', 'x', '--resume', 'base', '--fork-session', '--resume-at', '999', '--data', dirs.data.path], {
      cwd: dirs.work.path,
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('INVALID_CUT');
    expect(bad.stderr).toContain('dsh show');
  });

  it('--continue picks the most recent session of the working directory', { timeout: 90_000 }, async () => {
    const other = await makeTempDir('dsh-cli-other-');
    try {
      const here = await printJson(['-p', 'hello', '--data', dirs.data.path], { cwd: dirs.work.path });
      await printJson(['-p', 'hello', '--data', dirs.data.path], { cwd: other.path });
      const continued = await printJson(['-p', 'list files', '--continue', '--data', dirs.data.path], { cwd: dirs.work.path });
      expect(continued.sessionId).toBe(here.sessionId);
    } finally {
      await other.remove();
    }
  });
});

describe('dsh print mode: tool availability', () => {
  it('--tools restricts which tools exist for the model', { timeout: 90_000 }, async () => {
    const script = join(dirs.work.path, 'script.json');
    const response = [{ text: 'listing', toolCalls: [{ name: 'list_files', arguments: {} }] }, { text: 'done' }];
    await writeFile(script, JSON.stringify(response));
    const allowed = await printJson(['-p', 'go', '--model', `scripted:${script}`, '--tools', 'list_files', '--data', dirs.data.path], {
      cwd: dirs.work.path,
    });
    // The only call names a tool the session does not have: refused, so the turn is not a success (SPEC §25).
    const deniedRun = await runDsh(
      ['-p', 'go', '--model', `scripted:${script}`, '--tools', 'read_file', '--data', dirs.data.path, '--output-format', 'json'],
      { cwd: dirs.work.path },
    );
    expect(deniedRun.code).toBe(1);
    const denied = JSON.parse(deniedRun.stdout) as Record<string, unknown>;
    expect(denied).toMatchObject({ is_error: true });
    const resultOf = async (id: unknown) =>
      (await events(String(id))).find((event) => event.type === 'tool/result')!.data as {
        message: { isError: boolean; content: { text: string }[] };
      };
    expect((await resultOf(allowed.sessionId)).message).toMatchObject({ isError: false });
    expect((await resultOf(allowed.sessionId)).message.content[0]?.text).toContain('notes.md');
    const refused = (await resultOf(denied.sessionId)).message;
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).not.toContain('notes.md');

    const unknown = await runDsh(['-p', 'go', '--tools', 'rm_rf', '--data', dirs.data.path], { cwd: dirs.work.path });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown tool 'rm_rf'");
  });
});

describe('dsh and a session busy in another process', () => {
  it('refuses to resume it, naming the holder and suggesting a fork; forking it works', { timeout: 90_000 }, async () => {
    const base = await printJson(['-p', 'hello', '--name', 'held', '--data', dirs.data.path], { cwd: dirs.work.path });
    const store = await openSessionStore({ dir: dirs.data.path });
    const session = await store.open(String(base.sessionId));
    try {
      const refused = await runDsh(['-p', 'more', '--resume', 'held', '--data', dirs.data.path], { cwd: dirs.work.path });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('SESSION_BUSY');
      expect(refused.stderr).toContain(`pid ${process.pid}`);
      expect(refused.stderr).toContain(`--resume ${String(base.sessionId)} --fork-session --data ${dirs.data.path}`);
      // The suggested command, pasted as printed, forks the busy session.
      const forked = await runPrinted(`${hintCommand(refused.stderr)} --output-format json`, dirs.work.path, { cwd: dirs.work.path });
      expect(forked.code).toBe(0);
      expect(JSON.parse(forked.stdout)).toMatchObject({ parentSession: base.sessionId, isError: false });

      // `dsh fork` prints how to continue the child; that command works as printed too.
      const child = await runDsh(['fork', 'held', '--data', dirs.data.path], { cwd: dirs.work.path });
      const next = /continue it with (dsh .+)$/m.exec(child.stderr)?.[1] ?? '';
      expect(next).toBe(`dsh -p "…" --resume ${child.stdout.trim()} --data ${dirs.data.path}`);
      const continued = await runPrinted(`${next} --output-format json`, dirs.work.path, { cwd: dirs.work.path });
      expect(JSON.parse(continued.stdout)).toMatchObject({ sessionId: child.stdout.trim(), isError: false });
    } finally {
      await session.close();
      await store.close();
    }
  });
});
