import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FORKED_WORKSPACE_AT_CUT_SENTENCE,
  validate,
  workspaceMovedNote,
  workspaceStaleNote,
  type SessionEvent,
  type SessionHeader,
} from 'dsh-codec';
import { createMemoryStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { arbitraryLog, LogBuilder, type LogEvent } from '@dsh/test-utils';
import { closeOpenTail, scanOpenTail } from './close-open-tail.js';

const header = (id: string, cut?: number): SessionHeader =>
  cut === undefined
    ? { format: 'dsh-session', version: 7, id, createdAt: 0, inheritedEventCount: 0 }
    : { format: 'dsh-session', version: 7, id, createdAt: 0, parentSession: 'source', forkCut: cut, inheritedEventCount: cut + 1 };
const asEvents = (events: LogEvent[]): SessionEvent[] => events;
const runs = { numRuns: 60 };

describe('fork seeds over generated logs, at every seq', () => {
  it('keep the source prefix, validate as V7, end closed, and are deterministic', () => {
    fc.assert(
      fc.property(arbitraryLog(), (log) => {
        const events = asEvents(log);
        expect(validate(7, { header: header('source'), events })).toEqual([]);
        for (let cut = -1; cut < events.length; cut += 1) {
          const seed = buildForkSeed(events, cut, 5);
          // The prefix is the source's, event for event (by reference).
          for (let seq = 0; seq <= cut; seq += 1) expect(seed[seq]).toBe(events[seq]);
          expect(seed[cut + 1]).toMatchObject({ seq: cut + 1, type: 'session/end-seed', data: { inherited: true } });
          expect(validate(7, { header: header('child', cut), events: seed })).toEqual([]);
          // Closed: no open turn remains for either cause.
          expect(scanOpenTail(seed).turn).toBeUndefined();
          expect(closeOpenTail(seed, 'interrupted')).toEqual([]);
          expect(buildForkSeed(events, cut, 5)).toEqual(seed);
        }
      }),
      runs,
    );
  });

  it('nest: a fork of a grown fork child validates and keeps every ancestor marker in its prefix', () => {
    fc.assert(
      fc.property(arbitraryLog(), fc.nat(), fc.nat(), (log, first, second) => {
        const events = asEvents(log);
        const cut = events.length === 0 ? -1 : first % events.length;
        const child = buildForkSeed(events, cut, 1);
        const grown = asEvents(
          LogBuilder.continue(child).turn({ steps: [{ calls: [{ run: 'started' }], open: true }], end: 'open' }).events,
        );
        const cut2 = second % grown.length;
        const grandchild = buildForkSeed(grown, cut2, 1);
        expect(validate(7, { header: header('grandchild', cut2), events: grandchild })).toEqual([]);
        const markers = grandchild.filter(
          (event) => event.type === 'session/end-seed' && (event.data as { inherited?: true }).inherited === true,
        );
        expect(markers.at(-1)!.seq).toBe(cut2 + 1);
        expect(markers.length).toBe(cut2 >= cut + 1 ? 2 : 1);
      }),
      runs,
    );
  });
});

describe('the shared closer over generated logs', () => {
  it('closes any crash tail into a valid V7 log, once (a second pass adds nothing), deterministically', () => {
    fc.assert(
      fc.property(arbitraryLog(), fc.constantFrom('interrupted' as const, 'forked' as const), (log, cause) => {
        const events = asEvents(log);
        const closers = closeOpenTail(events, cause);
        expect(closeOpenTail(events, cause)).toEqual(closers);
        const closed = [...events, ...closers];
        expect(validate(7, { header: header('s'), events: closed })).toEqual([]);
        expect(closeOpenTail(closed, cause)).toEqual([]);
        expect(closers.length > 0).toBe(scanOpenTail(events).turn !== undefined);
      }),
      runs,
    );
  });
});

describe('SessionStore.fork matches buildForkSeed exactly', () => {
  it('for every seq of a stored session, the child log is the fork seed and the counters follow §5.3', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryLog({ maxTurns: 3, startWithEndSeed: true }), async (log) => {
        const store = createMemoryStore();
        const source = await store.create({ id: 'source' });
        // The generated log starts with a plain marker, like the session: replay the rest through append.
        for (const event of asEvents(log).slice(1)) {
          source.append(event.type, event.data, {
            ...(event.surfaceOp === undefined ? {} : { surfaceOp: event.surfaceOp }),
            ...(event.ignorable === true ? { ignorable: true as const } : {}),
          });
        }
        await source.flush();
        const events = source.events.slice();
        for (let cut = 0; cut < events.length; cut += 1) {
          const child = await store.fork('source', { atSeq: cut, id: `child-${cut}` });
          expect(child.events).toEqual(buildForkSeed(events, cut));
          expect(child.header).toMatchObject({ parentSession: 'source', forkCut: cut, inheritedEventCount: cut + 1 });
          expect(child.firstLifecycleSeq).toBe(cut + 1);
          expect(child.firstLiveSeq).toBe(child.events.length);
          expect(child.inheritedEventCount).toBe(cut + 1);
        }
        expect(source.events).toEqual(events);
        await store.close();
      }),
      { numRuns: 15 },
    );
  });
});

describe('fork seeds with the workspace at the cut (format V6, SPEC §23)', () => {
  it('differ from the plain seed only by the workspace sentence at the end of each closer text, and validate as V7', () => {
    fc.assert(
      fc.property(arbitraryLog(), (log) => {
        const events = asEvents(log);
        for (let cut = -1; cut < events.length; cut += 1) {
          const plain = buildForkSeed(events, cut, 5);
          const atCut = buildForkSeed(events, cut, { time: 5, workspace: 'at-cut' });
          expect(atCut.length).toBe(plain.length);
          expect(validate(7, { header: header('child', cut), events: atCut })).toEqual([]);
          atCut.forEach((event, index) => {
            const before = plain[index] as SessionEvent;
            if (index <= cut + 1 || event.type !== 'tool/result') {
              expect(event).toEqual(before);
              return;
            }
            // The same closer, but its one text block ends with the sentence.
            const text = (event.data as { message: { content: { text: string }[] } }).message.content[0]?.text;
            const plainText = (before.data as { message: { content: { text: string }[] } }).message.content[0]?.text;
            expect(text).toBe(`${String(plainText)} ${FORKED_WORKSPACE_AT_CUT_SENTENCE}`);
            const strip = (value: SessionEvent) => JSON.stringify(value).replace(` ${FORKED_WORKSPACE_AT_CUT_SENTENCE}`, '');
            expect(strip(event)).toBe(JSON.stringify(before));
          });
        }
      }),
      runs,
    );
  });

  it('put the notes right after the closers, between turns, and a seed with them validates as V7', () => {
    const notes = [workspaceMovedNote('/repo', '/repo-worktrees/b'), workspaceStaleNote(['src/a.ts'])];
    fc.assert(
      fc.property(arbitraryLog(), (log) => {
        const events = asEvents(log);
        for (let cut = -1; cut < events.length; cut += 1) {
          const plain = buildForkSeed(events, cut, 5);
          const seed = buildForkSeed(events, cut, { time: 5, notes });
          expect(seed.slice(0, plain.length)).toEqual(plain);
          expect(seed.slice(plain.length)).toEqual(
            notes.map((data, index) => ({ seq: plain.length + index, type: 'session/note', time: plain[cut + 1]?.time, data })),
          );
          expect(validate(7, { header: header('child', cut), events: seed })).toEqual([]);
        }
      }),
      runs,
    );
  });
});
