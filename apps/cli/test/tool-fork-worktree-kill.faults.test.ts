// SIGKILL during `dsh fork FILE --at REF --worktree` of a tool's session file at spread-out times (SPEC
// §23), once a tool (Claude Code, Codex, pi): once the next such fork has run, every child id has both its file (where the tool
// resumes it) and its directory (holding the files at the cut) or neither — never a directory no child
// uses. Half the kills land the moment the directory appears, before the child can be written. What
// differs between the tools (their file, where the child goes, the directory's name) is the table.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { faultTrials, makeTempDir, reportFaults, runDsh } from '@dsh/test-utils';
import { claudeProjectDirName } from '../src/commands/claude-project-folder.js';
import { after, killDsh, pathAppears } from './kill-dsh.js';

type Line = Record<string, unknown>;

/** One tool's part of the trial: its parent file, its child ids, and where a child lands. */
type ToolCase = {
  /** As the describe names it, and the figures' report name. */
  name: string;
  report: string;
  hookTool: 'claude-code' | 'codex' | 'pi';
  session: string;
  /** What the tool's hook (or pi's extension) sends `dsh checkpoint` before the call. */
  hook: (at: { session: string; cwd: string; callId: string; file: string }) => Record<string, unknown>;
  /** The call the checkpoint is taken before, and the REF that cuts after it. */
  callId: string;
  at: string;
  lines: (cwd: string) => Line[];
  /** The environment naming the tool's home below the data directory, and the parent's file there for a session in `work`. */
  home: (data: string) => Record<string, string>;
  parentFile: (data: string, work: string) => string;
  childId: (trial: number) => string;
  dirName: (id: string) => string;
  /** Whether the child `id` (its directory: `dir`) was written where the tool resumes it. */
  hasChild: (at: { id: string; dir: string; data: string; parentFile: string }) => Promise<boolean>;
};

const CLAUDE_SESSION = '3b9d2f10-5a6c-4d7e-8f90-a1b2c3d4e5f6';
const CODEX_SESSION = '01a25067-8066-79b1-8ac1-3c02672aef2e';
const PI_SESSION = '019af3c2-7d10-7000-8000-0123456789ab';
const PI_TIME = '2026-12-07T06:00:00.000Z';

/** A hook's input as Claude Code and Codex send it: session, cwd, the call's id, the event, the transcript. */
function claudeStyleHook(at: { session: string; cwd: string; callId: string; file: string }): Record<string, unknown> {
  return { session_id: at.session, cwd: at.cwd, tool_use_id: at.callId, hook_event_name: 'PreToolUse', transcript_path: at.file };
}

const TOOLS: ToolCase[] = [
  {
    name: 'Claude Code',
    report: 'kill9-claude-fork-worktree',
    hookTool: 'claude-code',
    session: CLAUDE_SESSION,
    hook: claudeStyleHook,
    callId: 'toolu_k',
    at: 'a-1',
    lines: (cwd) => {
      const base = { isSidechain: false, userType: 'external', cwd, sessionId: CLAUDE_SESSION, version: '2.1.332' };
      return [
        {
          ...base,
          parentUuid: null,
          type: 'user',
          message: { role: 'user', content: 'edit' },
          uuid: 'u-1',
          timestamp: '2026-12-07T06:00:00.000Z',
        },
        {
          ...base,
          parentUuid: 'u-1',
          type: 'assistant',
          message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_k', name: 'Bash', input: { command: 'x' } }] },
          uuid: 'a-1',
          timestamp: '2026-12-07T06:00:01.000Z',
        },
      ];
    },
    home: (data) => ({ CLAUDE_CONFIG_DIR: join(data, 'claude') }),
    parentFile: (data, work) => join(data, 'claude', 'projects', claudeProjectDirName(work), `${CLAUDE_SESSION}.jsonl`),
    childId: () => randomUUID(),
    dirName: (id) => `claude-${id.slice(0, 8)}`,
    hasChild: ({ id, dir, data }) =>
      Promise.resolve(existsSync(join(data, 'claude', 'projects', claudeProjectDirName(dir), `${id}.jsonl`))),
  },
  {
    name: 'Codex',
    report: 'kill9-codex-fork-worktree',
    hookTool: 'codex',
    session: CODEX_SESSION,
    hook: claudeStyleHook,
    callId: 'call_k',
    at: '2',
    lines: (cwd) => [
      { timestamp: '2026-12-07T06:00:00.000Z', ordinal: 0, type: 'session_meta', payload: { id: CODEX_SESSION, cwd } },
      { timestamp: '2026-12-07T06:00:01.000Z', ordinal: 1, type: 'turn_context', payload: { turn_id: 't', cwd } },
      {
        timestamp: '2026-12-07T06:00:02.000Z',
        ordinal: 2,
        type: 'response_item',
        payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"x"}', call_id: 'call_k' },
      },
    ],
    home: (data) => ({ CODEX_HOME: join(data, 'codex-home') }),
    parentFile: (data) => join(data, 'codex-home', 'sessions', '2026', '12', '07', `rollout-2026-12-07T06-00-00-${CODEX_SESSION}.jsonl`),
    // A Codex-style child id (time first, then random hex), distinct per trial.
    childId: (trial) => {
      const tail = `${trial.toString(16).padStart(4, '0')}${Math.random().toString(16).slice(2, 10)}`;
      return `01a25067-9000-7000-8000-${tail.slice(0, 12)}`;
    },
    dirName: (id) => `codex-${id.replace(/-/g, '').slice(-8)}`,
    hasChild: async ({ id, parentFile }) => (await readdir(dirname(parentFile))).some((name) => name.endsWith(`-${id}.jsonl`)),
  },
  {
    name: 'pi',
    report: 'kill9-pi-fork-worktree',
    hookTool: 'pi',
    session: PI_SESSION,
    // What dsh's pi extension sends for pi's `tool_call` event.
    hook: (at) => ({
      type: 'tool_call',
      toolCallId: at.callId,
      toolName: 'bash',
      cwd: at.cwd,
      sessionId: at.session,
      sessionFile: at.file,
    }),
    callId: 'call_k',
    at: 'a0000002',
    lines: (cwd) => [
      { type: 'session', version: 3, id: PI_SESSION, timestamp: PI_TIME, cwd },
      {
        type: 'message',
        id: 'a0000001',
        parentId: null,
        timestamp: PI_TIME,
        message: { role: 'user', content: [{ type: 'text', text: 'edit' }] },
      },
      {
        type: 'message',
        id: 'a0000002',
        parentId: 'a0000001',
        timestamp: PI_TIME,
        message: { role: 'assistant', content: [{ type: 'toolCall', id: 'call_k', name: 'bash', arguments: { command: 'x' } }] },
      },
    ],
    home: (data) => ({ PI_CODING_AGENT_DIR: join(data, 'pi-agent') }),
    parentFile: (data) => join(data, 'pi-agent', 'sessions', '--work--', `2026-12-07T06-00-00-000Z_${PI_SESSION}.jsonl`),
    // A pi-style child id (UUID v7 shape), distinct per trial.
    childId: (trial) => {
      const tail = `${trial.toString(16).padStart(4, '0')}${Math.random().toString(16).slice(2, 10)}`;
      return `019af3c2-9000-7000-8000-${tail.slice(0, 12)}`;
    },
    dirName: (id) => `pi-${id.replace(/-/g, '').slice(-8)}`,
    // pi's child goes beside the parent, named as pi names its files (`<time>_<id>.jsonl`).
    hasChild: async ({ id, parentFile }) => (await readdir(dirname(parentFile))).some((name) => name.endsWith(`_${id}.jsonl`)),
  },
];

describe.each(TOOLS)('SIGKILL during dsh fork FILE --worktree ($name)', { timeout: 1_800_000 }, (tool) => {
  it('leaves each child with its directory holding the cut, or neither, once the next fork has run', async () => {
    const figures = { trials: 0, acknowledged: 0, lost: 0, halfWritten: 0, killedMidway: 0 };
    const data = await makeTempDir(`dsh-${tool.hookTool}-fork-kill-data-`);
    const work = await makeTempDir(`dsh-${tool.hookTool}-fork-kill-work-`);
    try {
      await writeFile(join(work.path, 'notes.md'), 'before the call\n');
      const file = tool.parentFile(data.path, work.path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(
        file,
        tool
          .lines(work.path)
          .map((line) => `${JSON.stringify(line)}\n`)
          .join(''),
      );
      const home = tool.home(data.path);
      const hook = tool.hook({ session: tool.session, cwd: work.path, callId: tool.callId, file });
      expect((await runDsh(['checkpoint', '--from', tool.hookTool, '--data', data.path], { stdin: JSON.stringify(hook) })).stderr).toBe('');
      await writeFile(join(work.path, 'notes.md'), 'after the call\n');
      const env = { ...process.env, ...home, DSH_HOME: undefined, NODE_OPTIONS: undefined };
      const dirOf = (id: string): string => join(data.path, 'worktrees', tool.dirName(id));

      const ids: string[] = [];
      for (let trial = 0; trial < faultTrials(4, 30); trial += 1) {
        const id = tool.childId(trial);
        ids.push(id);
        const args = ['fork', file, '--at', tool.at, '--worktree', '--session-id', id, '--data', data.path];
        // Even trials: killed the moment the directory appears (before the child can be written); odd: at spread-out times.
        const when =
          trial % 2 === 0 ? (exited: Promise<unknown>) => pathAppears(dirOf(id), exited) : after(300 + ((trial * 1_307) % 3_000));
        if (await killDsh(args, when, env)) figures.killedMidway += 1;
        figures.trials += 1;
      }
      const last = tool.childId(999);
      const next = await runDsh(['fork', file, '--at', tool.at, '--worktree', '--session-id', last, '--data', data.path, '--json'], {
        env: home,
        timeoutMs: 120_000,
      });
      expect(next.code, next.stderr).toBe(0);
      ids.push(last);
      for (const id of ids) {
        const hasChild = await tool.hasChild({ id, dir: dirOf(id), data: data.path, parentFile: file });
        const hasDir = existsSync(dirOf(id));
        if (hasChild !== hasDir) figures.halfWritten += 1;
        if (hasChild) {
          figures.acknowledged += 1;
          if ((await readFile(join(dirOf(id), 'notes.md'), 'utf8').catch(() => undefined)) !== 'before the call\n') figures.lost += 1;
        }
      }
      expect(await readFile(join(work.path, 'notes.md'), 'utf8')).toBe('after the call\n');
      expect(figures.acknowledged).toBeGreaterThan(0);
      expect(figures.halfWritten).toBe(0);
      expect(figures.lost).toBe(0);
    } finally {
      reportFaults(tool.report, figures);
      await data.remove();
      await work.remove();
    }
  });
});
