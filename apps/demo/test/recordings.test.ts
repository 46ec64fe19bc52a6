/**
 * The shipped recordings are valid logs of the format they claim (SPEC §7): each opens through the
 * host over the embedded JSONL store, and each tells the story the demo promises.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createHost, openSessionStore, type Host, type SessionStore } from 'dsh-host';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { seedDataDir } from '../src/server/seed-data-dir.js';
import { DEMO_APP_DIR } from '../src/server/start-demo.js';

type Data = Record<string, unknown>;

let dir: TempDir;
let store: SessionStore;
let host: Host;

beforeEach(async () => {
  dir = await makeTempDir();
  const { sessionsDir } = await seedDataDir(join(dir.path, 'data'), join(DEMO_APP_DIR, 'recordings'));
  store = await openSessionStore({ dir: sessionsDir });
  host = createHost({ store });
});

afterEach(async () => {
  await host.close();
  await store.close();
  await dir.remove();
});

test('every recording is read in the format version it claims', async () => {
  const versions = Object.fromEntries((await store.list()).map((summary) => [summary.id, summary.formatVersion]));
  expect(versions).toEqual({
    'tour-every-effect': 4,
    'crashed-mid-step': 4,
    baseline: 4,
    'peer-formal': 4,
    'peer-casual': 4,
    'legacy-v0': 0,
    'legacy-v2': 2,
    'legacy-v3': 3,
  });
});

test('the tour is one completed multi-step turn with tool calls of every effect class, each answered', async () => {
  const { events, needsRepair } = await host.observe('tour-every-effect');
  expect(needsRepair).toBe(false);
  const calls = events.filter((event) => event.type === 'tool/call').map((event) => event.data as Data);
  expect(new Set(calls.map((call) => call.effect))).toEqual(new Set(['read-only', 'idempotent', 'side-effect', 'unknown']));
  const answered = events.filter((event) => event.type === 'tool/result').map((event) => ((event.data as Data).message as Data).callId);
  expect(answered).toEqual(calls.map((call) => call.callId));
  expect(events.filter((event) => event.type === 'step/start')).toHaveLength(4);
  expect(events.at(-1)).toMatchObject({ type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } });
  // The browser test forks between this tool/call and its result.
  expect(events[14]).toMatchObject({ type: 'tool/call', data: { name: 'make_dir', effect: 'idempotent' } });
  expect(events[15]?.type).toBe('tool/result');
});

test('the crashed recording ends inside a step after a started side-effect call and needs repair', async () => {
  const observation = await host.observe('crashed-mid-step');
  expect(observation.needsRepair).toBe(true);
  expect(observation.events.at(-1)).toMatchObject({ type: 'tool/call', data: { name: 'write_file', effect: 'side-effect' } });
});

describe('legacy recordings migrate to V7 on read', () => {
  test('V0: messages get legacy ids, tool calls become blocks, the reason becomes an object', async () => {
    const { header, events } = await host.observe('legacy-v0');
    expect(header).toMatchObject({ version: 7, id: 'legacy-v0', inheritedEventCount: 0 });
    expect(events[1]).toMatchObject({
      type: 'user/message',
      data: { message: { id: 'legacy-1', role: 'user', content: [{ type: 'text', text: 'What does src/greet.js export?' }] } },
    });
    expect(events[3]).toMatchObject({
      data: { message: { content: [{ type: 'text' }, { type: 'tool-call', id: 'c1', name: 'read_file' }] } },
    });
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { kind: 'completed' } } });
  });

  test('V2: an aborted turn is cancelled, an error result gets TOOL_FAILED, calls get effect unknown', async () => {
    const { events } = await host.observe('legacy-v2');
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', data: { turn: 2, reason: { kind: 'cancelled' } } });
    expect(events.find((event) => event.type === 'tool/result')).toMatchObject({
      data: { error: { name: 'ToolError', code: 'TOOL_FAILED' } },
    });
    expect(events.find((event) => event.type === 'tool/call')).toMatchObject({ data: { effect: 'unknown' } });
  });

  test('V3: its interrupted closers are kept unchanged', async () => {
    const { events } = await host.observe('legacy-v3');
    const closers = events.filter(
      (event) => event.type === 'tool/result' && String(((event.data as Data).message as Data).id).startsWith('interrupted-'),
    );
    expect(closers.map((event) => (event.data as Data).error)).toEqual([
      { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' },
      { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' },
    ]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'turn/end', data: { turn: 1, reason: { kind: 'interrupted' } } }));
  });
});

describe('the named baseline and its two peer forks', () => {
  test('each peer inherits exactly the baseline through its closed turn, then continues on its own', async () => {
    const baseline = await host.observe('baseline');
    for (const id of ['peer-formal', 'peer-casual']) {
      const peer = await host.observe(id);
      expect(peer.header).toMatchObject({ parentSession: 'baseline', forkCut: 13, inheritedEventCount: 14 });
      expect(peer.events.slice(0, 14)).toEqual(baseline.events);
      expect(peer.events[14]).toMatchObject({ type: 'session/end-seed', time: baseline.events[13]?.time, data: { inherited: true } });
      expect(peer.events.at(-1)).toMatchObject({ type: 'turn/end', data: { turn: 2, reason: { kind: 'completed' } } });
    }
  });

  test('the chat rule forks the baseline at the same cut the peers were taken at, and lineage shows both peers', async () => {
    const fork = await host.fork('baseline');
    expect(fork).toMatchObject({ parentSession: 'baseline', forkCut: 13, inheritedEventCount: 14 });
    const lineage = await host.lineage('baseline');
    expect(lineage.descendants.map((node) => node.id)).toEqual(expect.arrayContaining(['peer-formal', 'peer-casual', fork.sessionId]));
  });
});
