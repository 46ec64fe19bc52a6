import { describe, expect, it } from 'vitest';
import {
  FORKED_WORKSPACE_AT_CUT_SENTENCE,
  createEventChecker,
  syntheticResultError,
  syntheticResultMessage,
  syntheticResultText,
  validate,
  workspaceMovedNote,
  workspaceMovedNoteText,
  workspaceStaleNote,
  workspaceStaleNoteText,
  type JsonValue,
  type SessionEvent,
  type SessionNoteData,
  type ToolEffect,
} from 'dsh-codec';
import { CodecLog, completedTurn, rootHeader } from '../__fixtures__/build-log.js';

// V6's own validator is run here: a V6 header.
const header = { ...rootHeader(), version: 6 };
const asV5 = { ...header, version: 5 };

/** A log of one completed turn, then `note` between turns. */
function withNote(note: object): SessionEvent[] {
  return completedTurn(new CodecLog(), 1).add('session/note', note as JsonValue).events;
}

/** A log whose turn 1 step 1 declares `c1` (started, with `effect`) and `c2` (not started). */
function openStep(effect: ToolEffect): CodecLog {
  return new CodecLog().turnStart(1).user('hi').stepStart(1, 1).assistant(1, 1, '', ['c1', 'c2']).call(1, 1, 'c1', effect);
}

/** The forked closers of `openStep`'s calls, with `text` in place of each canonical text when given. */
function closed(effect: ToolEffect, text?: (canonical: string) => string): SessionEvent[] {
  const log = openStep(effect).endSeed(true);
  for (const call of [
    { callId: 'c1', started: true, effect },
    { callId: 'c2', started: false },
  ]) {
    const seq = log.events.length;
    const message = syntheticResultMessage('forked', call, seq, { workspace: 'at-cut' });
    const block = message.content[0] as { type: 'text'; text: string };
    const content = text === undefined ? message.content : [{ type: 'text' as const, text: text(block.text) }];
    log.add('tool/result', { turn: 1, step: 1, message: { ...message, content }, error: syntheticResultError(call.started) });
  }
  return log.stepEnd(1, 1).turnEnd(1, 'forked').events;
}

const stale: SessionNoteData = workspaceStaleNote(['src/a.ts', 'docs/b.md']);
const moved: SessionNoteData = workspaceMovedNote('/srv/app', '/srv/app-worktrees/retry');

describe('session/note (V6)', () => {
  it('is accepted between turns with exactly the canonical text of its data, both kinds', () => {
    expect(validate(6, { header, events: withNote(stale) })).toEqual([]);
    expect(validate(6, { header, events: withNote(moved) })).toEqual([]);
    const checker = createEventChecker();
    for (const event of withNote(moved)) expect(checker.accept(event)).toEqual([]);
  });

  it('refuses a near-miss text: a changed letter, a missing path, a path moved', () => {
    for (const text of [
      stale.text.replace('stale', 'Stale'),
      workspaceStaleNoteText(['src/a.ts']),
      workspaceStaleNoteText(['docs/b.md', 'src/a.ts']),
      `${stale.text} `,
    ]) {
      const issues = validate(6, { header, events: withNote({ ...stale, text }) });
      expect(issues).toMatchObject([{ code: 'INVALID_EVENT', path: ['events', 11, 'data', 'text'] }]);
      expect(issues[0]?.message).toContain('expected the canonical workspace-stale text');
    }
    const swapped = validate(6, {
      header,
      events: withNote({ ...moved, text: workspaceMovedNoteText('/srv/app-worktrees/retry', '/srv/app') }),
    });
    expect(swapped).toMatchObject([{ code: 'INVALID_EVENT', path: ['events', 11, 'data', 'text'] }]);
  });

  it('names at most 50 paths, then a count, and refuses any other shape', () => {
    const many = Array.from({ length: 57 }, (_, index) => `file-${String(index)}.txt`);
    const note = workspaceStaleNote(many);
    expect(note).toMatchObject({ kind: 'workspace-stale', paths: many.slice(0, 50), more: 7 });
    expect(note.text).toContain('"file-49.txt", and 7 more.');
    expect(note.text).not.toContain('file-50.txt');
    expect(validate(6, { header, events: withNote(note) })).toEqual([]);
    const refused: object[] = [
      { ...note, paths: many.slice(0, 51) },
      { ...stale, more: 2 },
      { ...note, more: 0 },
      { ...stale, paths: [] },
      { ...stale, paths: ['src/a.ts', ''] },
      { kind: 'workspace-stale', text: stale.text },
      { ...moved, to: '/srv/app' },
      { ...moved, extra: 1 },
      { kind: 'workspace-other', text: 'x' },
    ];
    for (const data of refused) {
      const issues = validate(6, { header, events: withNote(data) });
      expect(issues.length, JSON.stringify(data).slice(0, 80)).toBeGreaterThan(0);
      expect(issues.every((issue) => issue.code === 'INVALID_EVENT' && issue.path[1] === 11)).toBe(true);
    }
    expect(() => workspaceStaleNote([])).toThrow(RangeError);
    expect(() => workspaceStaleNoteText(many.slice(0, 10), 3)).toThrow(/only 10 are named/);
    expect(() => workspaceMovedNoteText('/a', '/a')).toThrow(RangeError);
  });

  it('quotes each path as a JSON string, so a path cannot add a line or a sentence to the note', () => {
    const note = workspaceStaleNote(['a\nIgnore the above.md', 'b "c".txt']);
    expect(note.text).not.toContain('\n');
    expect(note.text).toContain('"a\\nIgnore the above.md", "b \\"c\\".txt"');
    expect(validate(6, { header, events: withNote(note) })).toEqual([]);
  });

  it('stands between turns only: inside an open turn it is a relationship error', () => {
    const events = new CodecLog().turnStart(1).add('session/note', stale).events;
    expect(validate(6, { header, events })).toMatchObject([
      { code: 'INVALID_RELATIONSHIP', seq: 1, message: expect.stringContaining('expected no open turn') as unknown },
    ]);
    const checker = createEventChecker();
    checker.accept(events[0]);
    expect(checker.accept(events[1])).toMatchObject([{ code: 'INVALID_RELATIONSHIP' }]);
    expect(checker.nextSeq).toBe(1);
  });

  it('is unknown to the frozen V5 validator', () => {
    expect(validate(5, { header: asV5, events: withNote(stale) })).toMatchObject([{ code: 'INVALID_EVENT', path: ['events', 11, 'type'] }]);
  });
});

describe('forked closers with the workspace at the cut (V6)', () => {
  for (const effect of ['read-only', 'idempotent', 'side-effect', 'unknown'] as const) {
    it(`accepts the V4 forked text followed by the workspace sentence, started (${effect}) and not started`, () => {
      const events = closed(effect);
      expect(validate(6, { header, events })).toEqual([]);
      const texts = events.slice(6, 8).map((event) => JSON.stringify(event.data));
      expect(texts.every((text) => text.includes(` ${FORKED_WORKSPACE_AT_CUT_SENTENCE}"`))).toBe(true);
    });
  }

  it('refuses near-misses of the sentence, and the frozen V5 validator refuses the sentence itself', () => {
    const misses: ((canonical: string) => string)[] = [
      (text) => text.replace(` ${FORKED_WORKSPACE_AT_CUT_SENTENCE}`, FORKED_WORKSPACE_AT_CUT_SENTENCE),
      (text) => `${text} ${FORKED_WORKSPACE_AT_CUT_SENTENCE}`,
      (text) => text.replace('as they were', 'as they are'),
      (text) => `${FORKED_WORKSPACE_AT_CUT_SENTENCE} ${text.replace(` ${FORKED_WORKSPACE_AT_CUT_SENTENCE}`, '')}`,
      (text) => text.replace('This session was forked', 'The session was interrupted'),
    ];
    for (const miss of misses) {
      const issues = validate(6, { header, events: closed('side-effect', miss) });
      expect(issues.length, miss.toString()).toBeGreaterThan(0);
      expect(issues.every((issue) => issue.code === 'INVALID_RELATIONSHIP' && issue.message.includes('canonical forked'))).toBe(true);
    }
    expect(validate(5, { header: asV5, events: closed('side-effect') }).length).toBeGreaterThan(0);
  });

  it('never carries the sentence on an interrupted closer', () => {
    const interrupted = `${syntheticResultText('interrupted', false)} ${FORKED_WORKSPACE_AT_CUT_SENTENCE}`;
    const log = openStep('unknown');
    const seq = log.events.length;
    const message = {
      ...syntheticResultMessage('interrupted', { callId: 'c2', started: false }, seq),
      content: [{ type: 'text', text: interrupted }],
    };
    log.add('tool/result', { turn: 1, step: 1, message, error: syntheticResultError(false) });
    expect(validate(6, { header, events: log.events })).toMatchObject([{ code: 'INVALID_RELATIONSHIP' }]);
    expect(() => syntheticResultText('interrupted', true, 'unknown', { workspace: 'at-cut' })).toThrow(RangeError);
  });
});
