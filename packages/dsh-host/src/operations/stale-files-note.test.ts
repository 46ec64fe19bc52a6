/**
 * SPEC §23 "Honest to the model" without the workspace at the cut, through the host with the real
 * workspace store and files: a fork child that shares its parent's cwd is told, in a stored note
 * before its first request, which files the inherited history touched have changed since the cut.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@dsh/test-utils';
import { workspaceStaleNoteText, type SessionEvent } from 'dsh-codec';
import { createMemoryBackend, createMemoryStore, type SessionBackend } from 'dsh-session';
import { openWorkspaceStore } from 'dsh-workspace';
import { createScriptedModel, type ScriptedResponse } from 'dsh-agent';
import { createHost, demoTools, type Host, type HostCheckpointStore } from 'dsh-host';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const write = (path: string, content: string): ScriptedResponse => ({ toolCalls: [{ name: 'write_file', arguments: { path, content } }] });
const read = (path: string): ScriptedResponse => ({ toolCalls: [{ name: 'read_file', arguments: { path } }] });
const list = (): ScriptedResponse => ({ toolCalls: [{ name: 'list_files', arguments: {} }] });

type Kit = { host: Host; cwd: string; checkpoints: HostCheckpointStore; dataDir: string; backend: SessionBackend };

/** A host on a memory store with the real workspace store (or none), its sessions' cwd holding `files`. */
async function setUp(script: ScriptedResponse[], options: { checkpoints?: boolean; files?: Record<string, string> } = {}): Promise<Kit> {
  const dir = await makeTempDir();
  cleanups.push(() => dir.remove());
  const cwd = join(dir.path, 'project');
  await mkdir(cwd);
  for (const [path, content] of Object.entries(options.files ?? {})) await writeFile(join(cwd, path), content);
  const checkpoints = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
  const backend = createMemoryBackend();
  const store = createMemoryStore({ backend });
  const host = createHost({
    store,
    model: createScriptedModel(script),
    tools: demoTools(),
    ...(options.checkpoints === false ? {} : { checkpoints }),
  });
  cleanups.push(async () => {
    await host.close();
    await store.close();
  });
  return { host, cwd, checkpoints, dataDir: dir.path, backend };
}

async function eventsOf(host: Host, id: string): Promise<SessionEvent[]> {
  return [...(await host.observe(id)).events];
}

async function notesOf(host: Host, id: string): Promise<unknown[]> {
  return (await eventsOf(host, id)).filter((event) => event.type === 'session/note').map((event) => event.data);
}

/** The seq of the first turn's `turn/end`. */
async function firstTurnEnd(host: Host, id: string): Promise<number> {
  return (await eventsOf(host, id)).find((event) => event.type === 'turn/end')?.seq ?? -1;
}

describe('a fork sharing its parent’s cwd is told which touched files changed since the cut', () => {
  it('names a file the inherited history wrote that the parent changed after the cut, before the child’s first request', async () => {
    const { host, cwd } = await setUp([
      write('plan.md', 'first\n'),
      { text: 'one' },
      write('plan.md', 'second\n'),
      { text: 'two' },
      { text: 'child' },
    ]);
    const parent = await host.query({ prompt: 'write', cwd });
    await host.query({ prompt: 'rewrite', resume: parent.sessionId });
    const cut = await firstTurnEnd(host, parent.sessionId);
    const child = await host.fork(parent.sessionId, { atSeq: cut });
    const events = await eventsOf(host, child.sessionId);
    const note = events.find((event) => event.type === 'session/note');
    expect(note?.data).toEqual({ kind: 'workspace-stale', text: workspaceStaleNoteText(['plan.md']), paths: ['plan.md'] });
    // In the seed: right after the inherited marker, before anything the child does.
    expect(note?.seq).toBe(cut + 2);
    await host.query({ prompt: 'go on', resume: child.sessionId });
    const firstRequest = (await eventsOf(host, child.sessionId)).find((event) => event.seq > cut + 2 && event.type === 'turn/start');
    expect(firstRequest?.seq).toBeGreaterThan(note?.seq ?? Infinity);
  });

  it('names nothing with the workspace at the cut, and nothing when the touched files are unchanged', async () => {
    const { host, cwd } = await setUp([write('plan.md', 'first\n'), { text: 'one' }, write('other.md', 'x\n'), { text: 'two' }], {
      files: { 'untouched.md': 'a\n' },
    });
    const parent = await host.query({ prompt: 'write', cwd });
    await host.query({ prompt: 'write another', resume: parent.sessionId });
    await writeFile(join(cwd, 'untouched.md'), 'changed by the user\n');
    const cut = await firstTurnEnd(host, parent.sessionId);
    expect(await notesOf(host, (await host.fork(parent.sessionId, { atSeq: cut })).sessionId)).toEqual([]);
    await writeFile(join(cwd, 'plan.md'), 'changed by the user\n');
    expect(await notesOf(host, (await host.fork(parent.sessionId, { atSeq: cut, workspace: 'at-cut' })).sessionId)).toEqual([]);
    expect(await notesOf(host, (await host.fork(parent.sessionId, { atSeq: cut })).sessionId)).toMatchObject([
      { kind: 'workspace-stale', paths: ['plan.md'] },
    ]);
  });

  it('counts a read as touching, and a listed directory as touched by files that appeared or went in it', async () => {
    const { host, cwd } = await setUp([list(), read('keep.md'), { text: 'looked' }], {
      files: { 'keep.md': 'k\n', 'gone.md': 'g\n', 'edited.md': 'e\n' },
    });
    const parent = await host.query({ prompt: 'look', cwd });
    await writeFile(join(cwd, 'keep.md'), 'k2\n');
    await writeFile(join(cwd, 'edited.md'), 'e2\n');
    await writeFile(join(cwd, 'new.md'), 'n\n');
    await rm(join(cwd, 'gone.md'));
    const child = await host.fork(parent.sessionId, {});
    // edited.md was neither read nor added or removed under a listed directory: no result about it is stale.
    expect(await notesOf(host, child.sessionId)).toMatchObject([{ paths: ['gone.md', 'keep.md', 'new.md'] }]);
  });

  it('compares the checkpoint at the cut with the files of the directory the child runs in', async () => {
    const { host, cwd, dataDir } = await setUp([write('plan.md', 'first\n'), { text: 'one' }]);
    const parent = await host.query({ prompt: 'write', cwd });
    const elsewhere = join(dataDir, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'plan.md'), 'first\n');
    expect(await notesOf(host, (await host.fork(parent.sessionId, { configPatch: { cwd: elsewhere } })).sessionId)).toEqual([]);
    await writeFile(join(elsewhere, 'plan.md'), 'not the same\n');
    expect(await notesOf(host, (await host.fork(parent.sessionId, { configPatch: { cwd: elsewhere } })).sessionId)).toMatchObject([
      { paths: ['plan.md'] },
    ]);
    expect(await readFile(join(cwd, 'plan.md'), 'utf8')).toBe('first\n');
  });

  it('without a checkpoint at the cut, names the touched files the parent’s later calls wrote', async () => {
    const script = [write('plan.md', 'first\n'), { text: 'one' }, write('plan.md', 'second\n'), write('other.md', 'o\n'), { text: 'two' }];
    const { host, cwd, backend, dataDir } = await setUp(script, { checkpoints: false });
    const parent = await host.query({ prompt: 'write', cwd });
    await host.query({ prompt: 'rewrite', resume: parent.sessionId });
    const cut = await firstTurnEnd(host, parent.sessionId);
    expect((await eventsOf(host, parent.sessionId)).some((event) => event.type === 'workspace/checkpoint')).toBe(false);
    await host.release(parent.sessionId);
    // The same log, forked by a host that has a workspace store (none was taken for this session).
    const store = createMemoryStore({ backend });
    const withStore = createHost({ store, checkpoints: openWorkspaceStore({ dir: join(dataDir, 'other.git') }) });
    cleanups.push(async () => {
      await withStore.close();
      await store.close();
    });
    const child = await withStore.fork(parent.sessionId, { atSeq: cut });
    expect(await notesOf(withStore, child.sessionId)).toMatchObject([{ paths: ['plan.md'] }]);
  });

  it('tells every peer forked without its own files', async () => {
    const { host, cwd } = await setUp([write('plan.md', 'first\n'), { text: 'one' }, { text: 'peer' }, { text: 'peer' }]);
    const parent = await host.query({ prompt: 'write', cwd });
    await writeFile(join(cwd, 'plan.md'), 'changed\n');
    const { peers } = await host.peers(parent.sessionId, { peers: [{ prompt: 'a' }, { prompt: 'b' }] });
    for (const peer of peers) {
      await host.turnResult(peer.sessionId, peer.inputId);
      expect(await notesOf(host, peer.sessionId)).toMatchObject([{ kind: 'workspace-stale', paths: ['plan.md'] }]);
    }
  });

  it('writes no note on a host without a workspace store', async () => {
    const { host, cwd } = await setUp([write('plan.md', 'first\n'), { text: 'one' }], { checkpoints: false });
    const parent = await host.query({ prompt: 'write', cwd });
    await writeFile(join(cwd, 'plan.md'), 'changed\n');
    expect(await notesOf(host, (await host.fork(parent.sessionId, {})).sessionId)).toEqual([]);
  });
});
