import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate, type SessionEvent, type SessionHeader } from 'dsh-codec';
import * as forkEntry from 'dsh-session/fork';
import { buildForkSeed } from 'dsh-session/fork';
import { LogBuilder } from '@dsh/test-utils';

const asEvents = (builder: LogBuilder): SessionEvent[] => builder.events;
const childHeader = (cut: number, parent = 'parent'): SessionHeader => ({
  format: 'dsh-session',
  version: 7,
  id: 'child',
  createdAt: 0,
  parentSession: parent,
  forkCut: cut,
  inheritedEventCount: cut + 1,
});

describe('buildForkSeed', () => {
  it('reuses the inherited prefix by reference and adds the child marker with the cut event’s time', () => {
    const events = asEvents(
      new LogBuilder()
        .endSeed()
        .title('t')
        .turn({ steps: [{ calls: [{ run: 'answered' }] }] }),
    );
    const cut = events.length - 1;
    const seed = buildForkSeed(events, cut);
    expect(seed).toHaveLength(events.length + 1);
    seed.slice(0, cut + 1).forEach((event, index) => {
      expect(event).toBe(events[index]);
    });
    expect(seed[cut + 1]).toEqual({ seq: cut + 1, type: 'session/end-seed', time: events[cut]!.time, data: { inherited: true } });
    expect(validate(7, { header: childHeader(cut), events: seed })).toEqual([]);
  });

  it('cut -1 inherits nothing: only the marker, stamped with the supplied time', () => {
    const events = asEvents(new LogBuilder().endSeed().turn({}));
    expect(buildForkSeed(events, -1, 1234)).toEqual([{ seq: 0, type: 'session/end-seed', time: 1234, data: { inherited: true } }]);
    expect(buildForkSeed([], -1, 99)).toEqual([{ seq: 0, type: 'session/end-seed', time: 99, data: { inherited: true } }]);
  });

  it('closes a cut between a tool/call and its result as started (outcome unknown)', () => {
    const log = new LogBuilder()
      .endSeed()
      .turnStart()
      .user('go')
      .stepStart()
      .assistant('x', [{ id: 'c1', name: 'write' }]);
    log.toolCall('c1', { effect: 'side-effect' });
    const cut = log.lastSeq;
    log.toolResult('c1', 'written').stepEnd().turnEnd();
    const seed = buildForkSeed(asEvents(log), cut);
    const tail = seed.slice(cut + 2);
    expect(tail.map((event) => event.type)).toEqual(['tool/result', 'step/end', 'turn/end']);
    expect(tail[0]!.data).toMatchObject({
      message: { id: `forked-tool-result-c1-${cut + 2}`, callId: 'c1', isError: true },
      error: { code: 'TOOL_OUTCOME_UNKNOWN' },
    });
    expect(tail[2]!.data).toEqual({ turn: 1, reason: { kind: 'forked' } });
    expect(tail.every((event) => event.time === log.events[cut]!.time)).toBe(true);
    expect(validate(7, { header: childHeader(cut), events: seed })).toEqual([]);
  });

  it('closes a cut right after the assistant message as not started', () => {
    const log = new LogBuilder()
      .endSeed()
      .turnStart()
      .user('go')
      .stepStart()
      .assistant('x', [
        { id: 'c1', name: 'read' },
        { id: 'c2', name: 'read' },
      ]);
    const cut = log.lastSeq;
    const seed = buildForkSeed(asEvents(log), cut);
    expect(seed.slice(cut + 2).map((event) => (event.data as { error?: { code: string } }).error?.code ?? event.type)).toEqual([
      'TOOL_NOT_STARTED',
      'TOOL_NOT_STARTED',
      'step/end',
      'turn/end',
    ]);
    expect(validate(7, { header: childHeader(cut), events: seed })).toEqual([]);
  });

  it('adds no closers at a closed turn, and keeps plugin brackets and surface replacements as they are', () => {
    const log = new LogBuilder()
      .endSeed()
      .turn({ steps: [{ calls: [{ run: 'answered' }] }] })
      .plugin('compaction/start');
    log.replaceSurface(2, log.lastSeq - 2, 'summary');
    const cut = log.lastSeq;
    const seed = buildForkSeed(asEvents(log), cut);
    expect(seed.map((event) => event.type).slice(-3)).toEqual(['compaction/start', 'user/message', 'session/end-seed']);
    expect(validate(7, { header: childHeader(cut), events: seed })).toEqual([]);
  });

  it('keeps ancestor markers inside a nested fork’s prefix and adds only the new final marker', () => {
    const parent = asEvents(new LogBuilder().endSeed().turn({ steps: [{ calls: [{ run: 'started' }], open: true }], end: 'open' }));
    const child = buildForkSeed(parent, parent.length - 1);
    const grown = asEvents(
      LogBuilder.continue(child).turn({ user: 'next', steps: [{ calls: [{ run: 'declared' }], open: true }], end: 'open' }),
    );
    const cut = grown.length - 2;
    const grandchild = buildForkSeed(grown, cut);
    const markers = grandchild.filter(
      (event) => event.type === 'session/end-seed' && (event.data as { inherited?: true }).inherited === true,
    );
    expect(markers.map((event) => event.seq)).toEqual([parent.length, cut + 1]);
    expect(validate(7, { header: childHeader(cut, 'child'), events: grandchild })).toEqual([]);
  });

  it('is the only export of dsh-session/fork', () => {
    expect(Object.keys(forkEntry)).toEqual(['buildForkSeed']);
  });

  it('is never imported by the main entry’s files; it re-exports the one seed builder, which imports only types and the closer', async () => {
    const dir = import.meta.dirname;
    const files = (await readdir(dir)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    for (const file of files.filter((name) => name !== 'fork.ts')) {
      expect(await readFile(join(dir, file), 'utf8'), file).not.toMatch(/from '\.\/fork\.js'/);
    }
    const entry = await readFile(join(dir, 'fork.ts'), 'utf8');
    expect([...entry.matchAll(/^(import|export) .*$/gm)].map((match) => match[0])).toEqual([
      "export { buildForkSeed } from './build-fork-seed.js';",
    ]);
    const builder = await readFile(join(dir, 'build-fork-seed.ts'), 'utf8');
    const imports = [...builder.matchAll(/^import .*$/gm)].map((match) => match[0]);
    expect(imports).toEqual([
      "import type { SessionEvent, SessionNoteData } from 'dsh-codec';",
      "import { closeOpenTail } from './close-open-tail.js';",
    ]);
  });
});
