// SIGKILL during append, fork and open, with acknowledged-event accounting: a child process reports
// on a pipe what it was told is durable; the parent kills it at a varying moment, reopens and counts.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJsonl } from 'dsh-codec';
import { openSessionStore, type SessionStore } from 'dsh-session';
import { faultTrials, makeTempDir, reportFaults, type TempDir } from '@dsh/test-utils';
import { killAllStoreProcesses, spawnStoreProcess } from '../__fixtures__/spawn-store-process.js';
import { storedLogText } from '../__fixtures__/stored-log-text.js';

const figures = { trials: 0, acknowledged: 0, lost: 0, halfWritten: 0 };
afterAll(() => {
  reportFaults('kill9', figures);
});

/** A pause that differs per trial, so kills land at different points of a write. */
const pause = (trial: number) => new Promise((resolve) => setTimeout(resolve, 5 + ((trial * 37) % 120)));

describe('SIGKILL with acknowledged-event accounting', { timeout: 900_000 }, () => {
  let dir: TempDir;
  let store: SessionStore;
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterEach(async () => {
    await killAllStoreProcesses();
    await store.close();
    await dir.remove();
  });

  it('during append: every acknowledged batch is in the reopened log, byte-identical', async () => {
    for (let trial = 0; trial < faultTrials(4, 100); trial += 1) {
      const writer = spawnStoreProcess('write', dir.path, 'appended');
      await writer.waitFor((message) => message.event === 'durable');
      await pause(trial);
      await writer.kill9();
      const session = await store.open('appended');
      for (const message of writer.messages.filter((entry) => entry.event === 'durable')) {
        const from = message.from as number;
        const to = message.to as number;
        figures.acknowledged += to - from + 1;
        if (to >= session.events.length) figures.lost += to - Math.max(from, session.events.length) + 1;
      }
      await session.close();
      figures.trials += 1;
    }
    expect(figures.lost).toBe(0);
  });

  it('during fork: every returned child is whole, and no child is ever half-written', async () => {
    const source = await store.create({ id: 'source', title: 'forked while killed' });
    for (let turn = 1; turn <= 30; turn += 1) {
      source.append('turn/start', { turn });
      source.append('user/message', { message: { id: `u${turn}`, role: 'user', content: [{ type: 'text', text: 'x'.repeat(40_000) }] } });
      source.append('turn/end', { turn, reason: { kind: 'completed' } });
    }
    const sourceEvents = source.events.slice();
    await source.close();
    let children = 0;
    for (let trial = 0; trial < faultTrials(4, 100); trial += 1) {
      const forker = spawnStoreProcess('fork', dir.path, 'source');
      await forker.waitFor((message) => message.event === 'forked');
      await pause(trial);
      await forker.kill9();
      figures.trials += 1;
      const reported = new Set(forker.messages.filter((message) => message.event === 'forked').map((message) => message.child as string));
      figures.acknowledged += reported.size;
      const files = (await readdir(dir.path)).filter((name) => name.startsWith('source-child-') && name.endsWith('.jsonl'));
      for (const child of reported) if (!files.includes(`${child}.jsonl`)) figures.lost += 1;
      // The killed forker may have been sealing the source (SPEC §24): its events never change, and no
      // manifest names a segment that is not durable (reading one with its segments would refuse it).
      const sourceText = await storedLogText(dir.path, 'source').catch(() => '');
      if (sourceText === '' || JSON.stringify(decodeJsonl(sourceText).events) !== JSON.stringify(sourceEvents)) figures.lost += 1;
      for (const name of files) {
        const text = await storedLogText(dir.path, name.slice(0, -'.jsonl'.length)).catch(() => undefined);
        if (text === undefined) {
          figures.halfWritten += 1;
          continue;
        }
        const decoded = decodeJsonl(text);
        // Whole: no torn line, the inherited marker right after the cut, and the tail closed (the codec
        // validated every relationship, so an open turn would have been refused above).
        const cut = decoded.header.forkCut ?? -2;
        const marker = decoded.events[cut + 1];
        const whole =
          decoded.tornTail === undefined &&
          marker?.type === 'session/end-seed' &&
          (marker.data as { inherited?: boolean }).inherited === true;
        const openTurns =
          decoded.events.filter((event) => event.type === 'turn/start').length -
          decoded.events.filter((event) => event.type === 'turn/end').length;
        if (!whole || openTurns !== 0) figures.halfWritten += 1;
        children += 1;
      }
    }
    // A store opening the directory removes what killed forks left behind.
    const other = await openSessionStore({ dir: dir.path });
    await other.close();
    expect((await readdir(dir.path)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(children).toBeGreaterThan(0);
    expect(figures.halfWritten).toBe(0);
    expect(figures.lost).toBe(0);
  });

  it('during a whole import that seals its lines: every imported session reads back whole, none half-written, no segment left unnamed after a delete collects', async () => {
    const source = await store.create({ id: 'whole', title: 'imported while killed' });
    for (let turn = 1; turn <= 30; turn += 1) {
      source.append('turn/start', { turn });
      source.append('user/message', { message: { id: `u${turn}`, role: 'user', content: [{ type: 'text', text: 'w'.repeat(40_000) }] } });
      source.append('turn/end', { turn, reason: { kind: 'completed' } });
    }
    const sourceEvents = source.events.slice();
    await source.close();
    let imported = 0;
    for (let trial = 0; trial < faultTrials(4, 60); trial += 1) {
      const importer = spawnStoreProcess('import', dir.path, 'whole');
      await importer.waitFor((message) => message.event === 'ready');
      await new Promise((resolve) => setTimeout(resolve, 200 + ((trial * 389) % 1_200)));
      await importer.kill9();
      figures.trials += 1;
      const reported = new Set(importer.messages.filter((entry) => entry.event === 'imported').map((entry) => entry.id as string));
      imported += reported.size;
      figures.acknowledged += reported.size;
      const names = (await readdir(dir.path)).filter((name) => name.startsWith('whole-import-') && name.endsWith('.jsonl'));
      for (const id of reported) if (!names.includes(`${id}.jsonl`)) figures.lost += 1;
      for (const name of names) {
        const id = name.slice(0, -'.jsonl'.length);
        const text = await storedLogText(dir.path, id).catch(() => undefined);
        if (text === undefined) {
          figures.halfWritten += 1;
          continue;
        }
        const events = decodeJsonl(text).events;
        const round = Number(id.split('-').at(-1));
        const expected = sourceEvents.map((event) =>
          event.type === 'session/title' ? { ...event, data: { title: `import ${round}` } } : event,
        );
        if (JSON.stringify(events) !== JSON.stringify(expected)) figures.lost += 1;
      }
    }
    // Sealed as written: each imported file is a manifest holding its header only.
    const first = (await readdir(dir.path)).find((name) => name.startsWith('whole-import-') && name.endsWith('.jsonl'));
    expect(JSON.parse((await storedManifestHeader(dir.path, first ?? 'whole.jsonl')) ?? '{}')).toHaveProperty('segments.length', 1);
    expect(figures.halfWritten).toBe(0);
    expect(figures.lost).toBe(0);
    expect(imported).toBeGreaterThan(0);
    // A kill between publishing a segment and linking its manifest leaves a segment nothing names: a delete collects it.
    const any = (await store.list()).find((summary) => summary.id.startsWith('whole-import-'));
    if (any !== undefined) await store.delete(any.id);
    const named = new Set<string>();
    for (const name of await readdir(dir.path)) {
      if (!name.endsWith('.jsonl')) continue;
      const line = await storedManifestHeader(dir.path, name);
      for (const segment of (JSON.parse(line ?? '{}') as { segments?: { digest: string }[] }).segments ?? []) named.add(segment.digest);
    }
    expect((await readdir(join(dir.path, '.segments'))).filter((name) => !named.has(name))).toEqual([]);
  });

  it('during open (repair and close): the stored prefix is never lost and the log always reopens', async () => {
    const crashed = await store.create({ id: 'crashed' });
    crashed.append('turn/start', { turn: 1 });
    crashed.append('user/message', { message: { id: 'u1', role: 'user', content: [{ type: 'text', text: 'y'.repeat(50_000) }] } });
    await crashed.flush();
    const prefix = crashed.events.slice();
    // Leave it open-tailed as a crash would: drop the lease without closing the turn.
    await store.close();
    store = await openSessionStore({ dir: dir.path });
    for (let trial = 0; trial < faultTrials(4, 100); trial += 1) {
      const opener = spawnStoreProcess('open', dir.path, 'crashed');
      await opener.waitFor((message) => message.event === 'opened');
      await pause(trial);
      await opener.kill9();
      figures.trials += 1;
      figures.acknowledged += prefix.length;
      const session = await store.open('crashed');
      const kept = session.events.slice(0, prefix.length);
      if (JSON.stringify(kept) !== JSON.stringify(prefix)) figures.lost += 1;
      await session.close();
    }
    expect(figures.lost).toBe(0);
  });
});

/** The header line of a JSONL file in `dir` (a manifest's names its segments), or undefined when it has none. */
async function storedManifestHeader(dir: string, name: string): Promise<string | undefined> {
  const text = await readFile(join(dir, name), 'utf8');
  const end = text.indexOf('\n');
  return end === -1 ? undefined : text.slice(0, end);
}
