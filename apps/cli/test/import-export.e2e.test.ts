import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeCodeTranscript, codexTranscript, makeTempDir, printJson, runDsh, type TempDir } from '@dsh/test-utils';
import { claudeProjectDirName } from '../src/commands/claude-project-folder.js';

let data: TempDir;
let work: TempDir;
beforeEach(async () => {
  data = await makeTempDir('dsh-cli-data-');
  work = await makeTempDir('dsh-cli-work-');
});
afterEach(async () => {
  await data.remove();
  await work.remove();
});

type Event = { seq: number; type: string; data: Record<string, unknown> };
type Imported = {
  file: string;
  format: string;
  warnings: string[];
  sessions: { id: string; parentSession: string | null; forkCut: number | null; events: number }[];
}[];

describe('dsh import / dsh export through the real CLI', () => {
  it('imports a branched Claude Code file as a tree, refuses it again, and exports its history', { timeout: 400_000 }, async () => {
    const file = join(work.path, 'session.jsonl');
    await writeFile(file, claudeCodeTranscript({ turns: 6, branchAtTurn: 4, endMidCall: true }).text);
    const text = await runDsh(['import', file, '--name', 'imported', '--data', data.path]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('(claude-code, 2 sessions');
    expect(text.stdout).toMatch(/└─ 5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d-branch-1 {2}forked at seq \d+/);
    expect(text.stderr).toContain('image blocks kept as text placeholders');
    expect(text.stderr).not.toContain('thinking');

    const again = await runDsh(['import', file, '--data', data.path]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('SESSION_EXISTS');

    const shown = JSON.parse((await runDsh(['show', 'imported', '--json', '--data', data.path])).stdout) as {
      events: Event[];
      needsRepair: boolean;
    };
    expect(shown.needsRepair).toBe(true);
    expect(shown.events[shown.events.length - 1]?.type).toBe('session/title');

    const messages = await runDsh(['export', 'imported', '--format', 'messages', '--data', data.path]);
    expect(messages.code).toBe(0);
    const history = JSON.parse(messages.stdout) as { role: string; content: string; toolCalls?: unknown[] }[];
    expect(history[0]).toEqual({ role: 'user', content: 'Fix the flaky tests in src/, one module per turn.' });
    expect(history.some((m) => m.role === 'tool')).toBe(true);
    const markdown = await runDsh(['export', 'imported', '--data', data.path]);
    expect(markdown.stdout).toMatch(/^# imported\n\n## User\n\nFix the flaky tests/);
    expect(markdown.stdout).toContain('**Tool call** `Read`');
  });

  it('forks an imported session at its open call and continues it with the model told the truth', { timeout: 400_000 }, async () => {
    const file = join(work.path, 'rollout.jsonl');
    await writeFile(file, codexTranscript({ turns: 3, endMidCall: true }).text);
    const imported = JSON.parse((await runDsh(['import', file, '--json', '--data', data.path])).stdout) as Imported;
    const id = imported[0]?.sessions[0]?.id ?? '';
    const events = (JSON.parse((await runDsh(['show', id, '--json', '--data', data.path])).stdout) as { events: Event[] }).events;
    const lastCall = events.filter((e) => e.type === 'tool/call').at(-1);
    const script = join(work.path, 'script.json');
    await writeFile(script, JSON.stringify([{ text: 'I will check whether npm test already ran.' }]));
    const forked = await runDsh(['fork', id, '--at', String(lastCall?.seq), '--json', '--data', data.path]);
    const forkJson = JSON.parse(forked.stdout) as { sessionId: string };
    const child = forkJson.sessionId;
    // The keys dsh fork FILE --json prints, camelCase kept alongside.
    expect(forkJson).toMatchObject({
      session_id: child,
      file: null,
      format: 'dsh',
      parent_session: id,
      cut: lastCall?.seq,
      resume: ['dsh', '--resume', child],
      parentSession: id,
      forkCut: lastCall?.seq,
    });
    const result = await printJson(['-p', 'continue', '--resume', child, '--model', `scripted:${script}`, '--data', data.path], {
      cwd: work.path,
    });
    expect(result.result).toBe('I will check whether npm test already ran.');
    const childEvents = (JSON.parse((await runDsh(['show', child, '--json', '--data', data.path])).stdout) as { events: Event[] }).events;
    const closer = childEvents.find((e) => e.type === 'tool/result' && JSON.stringify(e.data).includes('forked-tool-result-call_FxOpen'));
    expect(closer?.data).toMatchObject({ error: { code: 'TOOL_OUTCOME_UNKNOWN' } });
  });

  it('--from-claude finds the sessions of the project the way Claude Code names its folder', { timeout: 400_000 }, async () => {
    const project = join(work.path, 'my.app');
    const folder = join(work.path, 'claude', 'projects', claudeProjectDirName(project));
    expect(claudeProjectDirName('/home/me/my.app')).toBe('-home-me-my-app');
    await mkdir(folder, { recursive: true });
    await mkdir(project);
    await writeFile(join(folder, '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d.jsonl'), claudeCodeTranscript({ turns: 3 }).text);
    const env = { CLAUDE_CONFIG_DIR: join(work.path, 'claude') };
    const first = await runDsh(['import', '--from-claude', '--data', data.path], { cwd: project, env });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d');
    const second = await runDsh(['import', '--from-claude', '--data', data.path], { cwd: project, env });
    expect(second.stdout).toContain('(already imported, skipped)');
    // The user went on in Claude Code: the stored import is left as it is, not a refusal.
    await writeFile(join(folder, '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d.jsonl'), claudeCodeTranscript({ turns: 4 }).text);
    const grown = await runDsh(['import', '--from-claude', '--data', data.path], { cwd: project, env });
    expect(grown.code).toBe(0);
    expect(grown.stdout).toContain('(stored with other events, skipped)');
    await writeFile(join(folder, '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d.jsonl'), claudeCodeTranscript({ turns: 3 }).text);
    // Claude Code names the folder after its physical working directory: a symlinked --project resolves to it.
    await symlink(project, join(work.path, 'linked-app'));
    const linked = await runDsh(['import', '--from-claude', '--project', join(work.path, 'linked-app'), '--data', data.path], { env });
    expect(linked.code).toBe(0);
    expect(linked.stdout).toContain('(already imported, skipped)');
    const missing = await runDsh(['import', '--from-claude', '--project', work.path, '--data', data.path], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('NO_CLAUDE_SESSIONS');
  });

  it(
    'imports a main session and its subagent file in either order without SESSION_EXISTS, and a Codex fork rollout as a fork child of its parent',
    { timeout: 400_000 },
    async () => {
      const mainFile = join(work.path, '5f0c3a52.jsonl');
      const agentFile = join(work.path, 'agent-a77aa77.jsonl');
      await writeFile(mainFile, claudeCodeTranscript({ turns: 2, spawnsAgent: 'a77aa77' }).text);
      await writeFile(agentFile, claudeCodeTranscript({ turns: 2, agentId: 'a77aa77' }).text);
      const agent = await runDsh(['import', agentFile, '--json', '--data', data.path]);
      expect(agent.code).toBe(0);
      const main = await runDsh(['import', mainFile, '--json', '--data', data.path]);
      expect(main.code).toBe(0);
      const ids = [agent, main].map((run) => (JSON.parse(run.stdout) as Imported)[0]?.sessions[0]?.id);
      expect(ids).toEqual(['5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d-agent-a77aa77', '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d']);
      // Every import is titled (a title line, else its first prompt).
      const rows = JSON.parse((await runDsh(['sessions', '--json', '--data', data.path])).stdout) as { id: string; title?: string }[];
      expect(rows.map((row) => typeof row.title)).toEqual(['string', 'string']);

      const parent = codexTranscript({ turns: 3, ordinals: true });
      const end = (
        JSON.parse(parent.text.split('\n').find((l) => l.includes('"task_started"') && l.includes('-000000000003"')) ?? '{}') as {
          ordinal: number;
        }
      ).ordinal;
      const forkFile = join(work.path, 'rollout-fork.jsonl');
      const parentFile = join(work.path, 'rollout-parent.jsonl');
      await writeFile(
        forkFile,
        codexTranscript({
          turns: 1,
          sessionId: '019e3000-2222-7333-8444-555566667777',
          forkOf: { threadId: parent.sessionId, endOrdinalExclusive: end },
        }).text,
      );
      await writeFile(parentFile, parent.text);
      const both = await runDsh(['import', forkFile, parentFile, '--data', data.path]);
      expect(both.code).toBe(0);
      expect(both.stdout).toMatch(new RegExp(`019e3000-2222-7333-8444-555566667777  forked from ${parent.sessionId} at seq \\d+`));
      expect(both.stdout.indexOf(parentFile)).toBeLessThan(both.stdout.indexOf(forkFile));
    },
  );
});
