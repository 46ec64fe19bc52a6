/**
 * SPEC §23 checkpoints in the loop, with real git, a real workspace store, real files and a JSONL
 * session store: a `workspace/checkpoint` right after `turn/start` and after the `tool/result` of every
 * call that is not read-only, readable again from disk; none without a store; a library user's own
 * loop gets the same event through `checkpointWorkspace`; without git, one warning and no checkpoint.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import type { SessionEvent } from 'dsh-codec';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { openWorkspaceStore, type WorkspaceStore } from 'dsh-workspace';
import { Agent, CHECKPOINT_EVENT, checkpointWorkspace, createScriptedModel, demoTools, type CheckpointRecord } from 'dsh-agent';

const stores: SessionStore[] = [];
const dirs: TempDir[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) await dir.remove();
});

/** A data folder with its JSONL session store, its workspace store, and a workspace with one file. */
async function setup(): Promise<{ data: string; sessions: SessionStore; workspaces: WorkspaceStore; cwd: string }> {
  const dir = await makeTempDir();
  dirs.push(dir);
  const data = join(dir.path, 'data');
  const cwd = join(dir.path, 'project');
  await mkdir(data);
  await mkdir(cwd);
  await writeFile(join(cwd, 'notes.txt'), 'before\n');
  const sessions = await openSessionStore({ dir: data });
  stores.push(sessions);
  return { data, sessions, workspaces: openWorkspaceStore({ dir: join(data, '.workspaces.git') }), cwd };
}

const typesOf = (events: readonly SessionEvent[]) => events.map((event) => event.type);

async function filesOf(workspaces: WorkspaceStore, tree: string): Promise<string[]> {
  return (await workspaces.listFiles(tree)).map((file) => file.path);
}

describe('workspace checkpoints in the turn loop', () => {
  it('takes none for a session whose stored config says checkpoints: false, store given or not, across a reopen', async () => {
    const { sessions, workspaces, cwd } = await setup();
    const session = await sessions.create({ id: 'no-files', config: { cwd, checkpoints: false } });
    const model = createScriptedModel([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'x\n' } }] },
      { text: 'Done.' },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'again.txt', content: 'y\n' } }] },
      { text: 'Done again.' },
    ]);
    const agent = new Agent({ session, model, tools: demoTools(), checkpoints: workspaces });
    agent.enqueue('write a file');
    await agent.idle();
    await agent.close();
    await session.close();
    // Resumed by a new agent that is given a store: the stored choice still holds.
    const reopened = await sessions.open('no-files');
    const again = new Agent({ session: reopened, model, tools: demoTools(), checkpoints: workspaces });
    again.enqueue('write another');
    await again.idle();
    await again.close();
    const types = typesOf(reopened.events);
    await reopened.close();
    expect(types.filter((type) => type === 'tool/result')).toHaveLength(2);
    expect(types).not.toContain(CHECKPOINT_EVENT);
    expect(readFileSync(join(cwd, 'again.txt'), 'utf8')).toBe('y\n');
  });

  it('appends one after turn/start and after each call that is not read-only, whatever its outcome', async () => {
    const { sessions, workspaces, cwd } = await setup();
    const session = await sessions.create({ id: 'with-files', config: { cwd } });
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'new.txt', content: 'written by the model\n' } },
          { name: 'read_file', arguments: { path: 'new.txt' } },
          { name: 'make_dir', arguments: { path: 'sub' } },
          { name: 'write_file', arguments: { path: '../outside.txt', content: 'refused' } },
          { name: 'no_such_tool', arguments: {} },
        ],
      },
      { text: 'Done.' },
    ]);
    const agent = new Agent({ session, model, tools: demoTools(), checkpoints: workspaces });
    agent.enqueue('write a file');
    await agent.idle();
    await agent.close();
    await session.close();

    // Read back from disk: the events are stored, ignorable, each right after the event it follows.
    const reopened = await sessions.open('with-files');
    const events = reopened.events;
    await reopened.close();
    const types = typesOf(events);
    expect(types.slice(types.indexOf('turn/start'), types.indexOf('turn/end') + 1)).toEqual([
      'turn/start',
      CHECKPOINT_EVENT,
      'user/message',
      'step/start',
      'assistant/message',
      'tool/call',
      'tool/result',
      CHECKPOINT_EVENT,
      'tool/call',
      'tool/result',
      'tool/call',
      'tool/result',
      CHECKPOINT_EVENT,
      'tool/call',
      'tool/result',
      CHECKPOINT_EVENT,
      'tool/call',
      'tool/result',
      CHECKPOINT_EVENT,
      'step/end',
      'step/start',
      'assistant/message',
      'step/end',
      'turn/end',
    ]);
    const checkpoints = events.filter((event) => event.type === CHECKPOINT_EVENT);
    for (const event of checkpoints) expect(event.ignorable).toBe(true);
    const records = checkpoints.map((event) => event.data as CheckpointRecord);
    const calls = events.filter((event) => event.type === 'tool/call').map((event) => (event.data as { callId: string }).callId);
    expect(records.map((record) => [record.after, record.callId])).toEqual([
      ['turn-start', undefined],
      ['call', calls[0]],
      ['call', calls[2]],
      ['call', calls[3]],
      ['call', calls[4]],
    ]);
    for (const record of records) {
      expect(record.tree).toMatch(/^[0-9a-f]{40}$/);
      expect(record.ms).toBeGreaterThanOrEqual(0);
      expect(record.skipped).toBeUndefined();
    }
    // The turn-start checkpoint holds the files before the call; the one after write_file has its file.
    expect(await filesOf(workspaces, records[0]?.tree ?? '')).toEqual(['notes.txt']);
    expect(await filesOf(workspaces, records[1]?.tree ?? '')).toEqual(['new.txt', 'notes.txt']);
    expect(readFileSync(join(cwd, 'new.txt'), 'utf8')).toBe('written by the model\n');
  });

  it('takes none without a store (the control)', async () => {
    const { sessions, cwd } = await setup();
    const session = await sessions.create({ config: { cwd } });
    const model = createScriptedModel([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'a' } }] },
      { text: 'ok' },
    ]);
    const agent = new Agent({ session, model, tools: demoTools() });
    agent.enqueue('go');
    await agent.idle();
    await agent.close();
    expect(typesOf(session.events)).not.toContain(CHECKPOINT_EVENT);
    await session.close();
  });

  it('gives a library user’s own loop the same event through one call', async () => {
    const { sessions, workspaces, cwd } = await setup();
    const session = await sessions.create({ config: { cwd } });
    session.append('turn/start', { turn: 1 });
    const record = await checkpointWorkspace(session, workspaces, { after: 'turn-start' });
    expect(session.events.at(-1)).toMatchObject({ type: CHECKPOINT_EVENT, ignorable: true, data: record });
    expect(record && (await filesOf(workspaces, record.tree))).toEqual(['notes.txt']);

    const noCwd = await sessions.create();
    expect(await checkpointWorkspace(noCwd, workspaces, { after: 'turn-start' })).toBeUndefined();
    expect(typesOf(noCwd.events)).not.toContain(CHECKPOINT_EVENT);
    await session.close();
    await noCwd.close();
  });

  it('without git: no checkpoint, one warning per process, the turn unaffected', async () => {
    const { sessions, workspaces, cwd } = await setup();
    const session = await sessions.create({ config: { cwd } });
    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }): void => {
      if (warning.code === 'DSH_CHECKPOINT') warnings.push(warning.message);
    };
    process.on('warning', onWarning);
    const path = process.env['PATH'];
    process.env['PATH'] = join(cwd, 'no-programs-here');
    try {
      const model = createScriptedModel([
        { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'a' } }] },
        { text: 'ok' },
      ]);
      const agent = new Agent({ session, model, tools: demoTools(), checkpoints: workspaces });
      agent.enqueue('go');
      const result = await agent.idle();
      await agent.close();
      expect(result?.reason).toEqual({ kind: 'completed' });
      expect(typesOf(session.events)).not.toContain(CHECKPOINT_EVENT);
    } finally {
      process.env['PATH'] = path;
    }
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('workspace checkpoints are off for this process: git could not be run (GIT_NOT_FOUND');
    await session.close();
  });
});
