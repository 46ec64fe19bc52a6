import { expect, test } from 'vitest';
import { createMemoryStore } from 'dsh-host';
import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import { importTranscript } from 'dsh-import';
import { importTranscripts, type ImportAnswer } from './import-transcripts.js';

test('a branched Claude Code file is stored as its main line and an exact fork child, and the tree comes back', async () => {
  const store = createMemoryStore();
  const { text, sessionId } = claudeCodeTranscript({ turns: 5, branchAtTurn: 3 });
  const reply = await importTranscripts(store, { text });
  expect(reply.status).toBe(201);
  const answer = reply.body as ImportAnswer;
  expect(answer.format).toBe('claude-code');
  expect(answer.sessions.map((session) => session.id)).toEqual([sessionId, `${sessionId}-branch-1`]);
  const [main, branch] = answer.sessions;
  expect(branch).toMatchObject({ parentSession: sessionId, forkCut: expect.any(Number) as number });
  const stored = await store.inspect(branch?.id ?? '');
  expect(stored.header).toMatchObject({ parentSession: sessionId, forkCut: branch?.forkCut });
  expect(stored.events.length).toBe(branch?.events);
  expect((await store.inspect(main?.id ?? '')).events.length).toBe(main?.events);
});

test('Codex and pi files are read too (format detected)', async () => {
  const store = createMemoryStore();
  expect(((await importTranscripts(store, { text: codexTranscript().text })).body as ImportAnswer).format).toBe('codex');
  expect(((await importTranscripts(store, { text: piTranscript().text })).body as ImportAnswer).format).toBe('pi');
});

test('importing the same file again is refused with SESSION_EXISTS and stores nothing', async () => {
  const store = createMemoryStore();
  const { text } = claudeCodeTranscript({ turns: 2 });
  await importTranscripts(store, { text });
  const before = await store.list();
  const again = await importTranscripts(store, { text });
  expect(again).toMatchObject({ status: 409, body: { error: { code: 'SESSION_EXISTS' } } });
  expect(await store.list()).toEqual(before);
});

test("a file dsh-import cannot read is a 400 carrying the ImportError's code and line, and stores nothing", async () => {
  const store = createMemoryStore();
  const notes = await importTranscripts(store, { text: 'just some notes\nnot a session\n' });
  expect(notes).toMatchObject({ status: 400, body: { error: { code: 'MALFORMED_LINE', message: expect.stringMatching(/line 1/) as string } } });
  const unknown = await importTranscripts(store, { text: '{"hello":1}\n{"hello":2}\n' });
  expect(unknown).toMatchObject({ status: 400, body: { error: { code: 'UNKNOWN_FORMAT' } } });
  const wrong = await importTranscripts(store, { text: claudeCodeTranscript({ turns: 1 }).text, format: 'codex' });
  expect(wrong).toMatchObject({ status: 400, body: { error: { code: 'FORMAT_MISMATCH' } } });
  const empty = await importTranscripts(store, { text: '' });
  expect(empty).toMatchObject({ status: 400, body: { error: { code: 'EMPTY_TRANSCRIPT' } } });
  expect(await store.list()).toEqual([]);
});

test('a body that is not { text, format? } is a 400 BAD_REQUEST saying what was expected and what came', async () => {
  const store = createMemoryStore();
  expect(await importTranscripts(store, ['x'])).toMatchObject({ status: 400, body: { error: { code: 'BAD_REQUEST', message: expect.stringContaining('received an array') as string } } });
  expect(await importTranscripts(store, { file: 'x' })).toMatchObject({ body: { error: { message: expect.stringContaining('"text" is missing') as string } } });
  expect(await importTranscripts(store, { text: 'x', format: 'word' })).toMatchObject({ body: { error: { message: expect.stringContaining('received "word"') as string } } });
});

test('two imports of one file at once: one stores every session, the other is refused, nothing is stored twice', async () => {
  const store = createMemoryStore();
  const { text } = claudeCodeTranscript({ turns: 4, branchAtTurn: 2 });
  const replies = await Promise.all([importTranscripts(store, { text }), importTranscripts(store, { text })]);
  expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409]);
  const stored = replies.find((reply) => reply.status === 201)?.body as ImportAnswer;
  expect((await store.list()).map((summary) => summary.id).sort()).toEqual(stored.sessions.map((session) => session.id).sort());
});

test('an import cut short (only the main line stored) is finished by importing the file again; a session stored with other events is a conflict', async () => {
  const store = createMemoryStore();
  const { text, sessionId } = claudeCodeTranscript({ turns: 5, branchAtTurn: 3 });
  const parsed = importTranscript(text);
  const [main, branch] = parsed.sessions;
  if (main === undefined || branch === undefined) throw new Error('expected a main line and a branch');
  // The server died after the first store.import.
  await store.import(main);
  const finished = await importTranscripts(store, { text });
  expect(finished.status).toBe(201);
  expect((finished.body as ImportAnswer).sessions).toEqual([
    expect.objectContaining({ id: sessionId, kept: true }),
    expect.objectContaining({ id: branch.header.id, parentSession: sessionId }),
  ]);
  expect((await store.inspect(branch.header.id)).events.length).toBe(branch.events.length);

  const other = createMemoryStore();
  await other.import(importTranscript(claudeCodeTranscript({ turns: 2 }).text).sessions[0]!);
  const conflict = await importTranscripts(other, { text });
  expect(conflict).toMatchObject({ status: 409, body: { error: { code: 'SESSION_EXISTS', message: expect.stringContaining('with other events') as string } } });
  expect((await other.list()).map((summary) => summary.id)).toEqual([sessionId]);
});
