/**
 * SPEC §23 "Honest to the model" — what a fork child is told of its files, in stored, model-visible
 * records before its first model request (format V6): the closer's workspace-at-cut sentence, the
 * stale-files note (at most 50 paths, then a count) and the moved-directory note.
 */
import { describe, expect, it } from 'vitest';
import {
  CURRENT_FORMAT_VERSION,
  FORKED_WORKSPACE_AT_CUT_SENTENCE,
  decodeJsonl,
  syntheticResultText,
  validate,
  workspaceMovedNote,
  workspaceMovedNoteText,
  workspaceStaleNote,
  workspaceStaleNoteText,
  type SessionEvent,
} from 'dsh-codec';
import { createMemoryStore, openSessionStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { Agent, createScriptedModel, deriveHistory, type ModelMessage } from 'dsh-agent';
import { completedTurnRows, logRow, makeTempDir } from '@dsh/test-utils';
import { appendAll, currentHeader, jsonl, rejection, toEvents } from './support.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A turn cut while `w` (side effect) runs and `r` is declared but not started. */
const OPEN = [
  logRow.turnStart(2),
  logRow.user('u2', 'edit and check'),
  logRow.stepStart(2, 1),
  logRow.assistant(2, 1, '', ['w', 'r']),
  logRow.call(2, 1, 'w', 'side-effect'),
];

const textOf = (message: ModelMessage | undefined) =>
  (message?.content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('');
const resultTexts = (events: readonly SessionEvent[]) =>
  events
    .filter((event) => event.type === 'tool/result')
    .map((event) => (event.data as { message: { content: { text: string }[] } }).message.content[0]?.text);

describe('§23 honest to the model (format V6)', () => {
  it('§23 V6 (and the current V7, §24) admit a note and the workspace sentence; a V5 validator refuses both', () => {
    expect(CURRENT_FORMAT_VERSION).toBe(7);
    const events = toEvents([...completedTurnRows(1), ...OPEN]);
    const seed = buildForkSeed(events, events.length - 1, { workspace: 'at-cut', notes: [workspaceStaleNote(['src/a.ts'])] });
    const header = currentHeader('child', { parentSession: 'p', forkCut: events.length - 1, inheritedEventCount: events.length });
    expect(validate(7, { header, events: seed })).toEqual([]);
    expect(validate(6, { header: { ...header, version: 6 as 7 }, events: seed })).toEqual([]);
    expect(validate(5, { header: { ...header, version: 5 as 7 }, events: seed }).length).toBeGreaterThan(0);
    expect(decodeJsonl(jsonl(header, seed)).events).toStrictEqual(seed);
  });

  it('§23 with the workspace at the cut, the closer of each call open at the cut adds that the files are as before the call started', async () => {
    const store = createMemoryStore();
    const parent = await store.create({ id: 'parent' });
    appendAll(parent, [...completedTurnRows(1), ...OPEN]);
    const atSeq = parent.events.length - 1;
    const atCut = await store.fork('parent', { atSeq, id: 'at-cut', workspace: 'at-cut' });
    const plain = await store.fork('parent', { atSeq, id: 'plain' });
    expect(resultTexts(atCut.events)).toStrictEqual([
      `${syntheticResultText('forked', true, 'side-effect')} ${FORKED_WORKSPACE_AT_CUT_SENTENCE}`,
      `${syntheticResultText('forked', false)} ${FORKED_WORKSPACE_AT_CUT_SENTENCE}`,
    ]);
    expect(resultTexts(plain.events)).toStrictEqual([
      syntheticResultText('forked', true, 'side-effect'),
      syntheticResultText('forked', false),
    ]);
    expect(FORKED_WORKSPACE_AT_CUT_SENTENCE).toMatch(/before this call started/);
    expect(FORKED_WORKSPACE_AT_CUT_SENTENCE).toMatch(/outside/);
    // Only the sentence differs, and the model reads it as the call's result.
    expect(JSON.stringify(atCut.events).replaceAll(` ${FORKED_WORKSPACE_AT_CUT_SENTENCE}`, '')).toBe(
      JSON.stringify(plain.events).replaceAll('"plain"', '"at-cut"'),
    );
    expect(
      deriveHistory(atCut.events)
        .filter((message) => message.role === 'tool')
        .map(textOf),
    ).toStrictEqual(resultTexts(atCut.events));
    await store.close();
  });

  it('§23 without it, a note names the changed files the history touched (at most 50, then a count), stored in the seed and read by the next model request', async () => {
    const dir = await makeTempDir();
    try {
      const store = await openSessionStore({ dir: dir.path });
      const parent = await store.create({ id: 'parent' });
      appendAll(parent, completedTurnRows(1, ['c1']));
      await parent.flush();
      const changed = Array.from({ length: 60 }, (_, index) => `src/file-${String(index).padStart(2, '0')}.ts`);
      const note = workspaceStaleNote(changed);
      expect(note).toMatchObject({ kind: 'workspace-stale', paths: changed.slice(0, 50), more: 10 });
      const atSeq = parent.events.length - 1;
      const child = await store.fork('parent', { atSeq, id: 'child', notes: [note] });
      expect(child.events.slice(atSeq + 2)).toStrictEqual([
        { seq: atSeq + 2, type: 'session/note', time: parent.events[atSeq]!.time, data: note },
      ]);
      expect(note.text).toBe(workspaceStaleNoteText(changed.slice(0, 50), 10));
      expect(note.text).toContain('"src/file-49.ts", and 10 more');
      expect(note.text).toMatch(/may be stale/);
      // Stored before the child's first model request: the file holds it right after the fork.
      const stored = decodeJsonl(await readFile(join(dir.path, 'child.jsonl'), 'utf8'));
      expect(stored.events.at(-1)).toStrictEqual(child.events.at(-1));
      const model = createScriptedModel([{ text: 'I will read them again.' }]);
      const agent = new Agent({ session: child, model });
      agent.enqueue('continue');
      await agent.idle();
      const request = model.requests[0]!.messages;
      expect(request.at(-2)).toStrictEqual({ id: `note-${String(atSeq + 2)}`, role: 'user', content: [{ type: 'text', text: note.text }] });
      expect(textOf(request.at(-1))).toBe('continue');
      await store.close();
    } finally {
      await dir.remove();
    }
  });

  it('§23 a child moved to a new directory is told so and how paths map, in a note', () => {
    const note = workspaceMovedNote('/home/me/app', '/home/me/.dsh/worktrees/try-2');
    expect(note.text).toBe(workspaceMovedNoteText('/home/me/app', '/home/me/.dsh/worktrees/try-2'));
    expect(note.text).toMatch(/working directory has moved/);
    expect(note.text).toContain('"/home/me/app"');
    expect(note.text).toContain('"/home/me/.dsh/worktrees/try-2"');
    const events = toEvents(completedTurnRows(1));
    expect(deriveHistory(buildForkSeed(events, events.length - 1, { notes: [note] })).at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: note.text }],
    });
  });

  it('§23 the texts are canonical: a note whose text differs from its data, or one inside a turn, is refused and nothing is created', async () => {
    const store = createMemoryStore();
    const parent = await store.create({ id: 'parent' });
    appendAll(parent, completedTurnRows(1));
    const note = workspaceStaleNote(['src/a.ts']);
    const error = await rejection(
      store.fork('parent', { atSeq: parent.events.length - 1, id: 'bad', notes: [{ ...note, text: `${note.text} ` }] }),
    );
    expect(error.code).toBe('INVALID_EVENT');
    expect(await store.has('bad')).toBe(false);
    const inTurn = toEvents([logRow.turnStart(1), ['session/note', note]]);
    expect(validate(7, { header: currentHeader(), events: inTurn })).toMatchObject([{ code: 'INVALID_RELATIONSHIP', seq: 1 }]);
    await store.close();
  });
});
