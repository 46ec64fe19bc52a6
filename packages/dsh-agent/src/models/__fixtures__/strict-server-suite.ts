/**
 * @module models/__fixtures__/strict-server-suite
 * `strictServerSuite`: what the reasoning round-trip tests (Anthropic thinking, DeepSeek
 * `reasoning_content`) share — a JSONL store for the file, one strict local model server per test,
 * the messages each request sent, the stored log read back and validated, and the fork-at-a-cut
 * flow both run for `assistant/message` and `tool/call`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { CURRENT_FORMAT_VERSION, decodeJsonl, validate, type SessionEvent } from 'dsh-codec';
import { openSessionStore, type Session, type SessionStore } from 'dsh-session';
import { makeTempDir, startModelServer, type ModelServer, type TempDir } from '@dsh/test-utils';
import { Agent, type AgentOptions, type Model } from 'dsh-agent';
import { readFileStub } from './read-file-stub.js';

/** A fork of a parent that ran one `read a.txt` turn, cut at `cut`, whose child ran `go on` as turn 2. */
export type ForkedRun = { parent: Session; child: Session; childId: string };

/** The store, the server and the readers of one test file; see `strictServerSuite`. */
export type StrictServerSuite = {
  readonly store: SessionStore;
  /** Starts this test's model server (closed after the test). */
  serve(handler: Parameters<typeof startModelServer>[0]): Promise<ModelServer>;
  /** The `messages` of request `index` to this test's server (`-1`: the latest). */
  sent<Message>(index: number): Message[];
  /** The stored file of session `id`, decoded and validated as the current version (what a later `open` reads). */
  storedLog(id: string): Promise<SessionEvent[]>;
  /**
   * Runs `read a.txt` on a new parent `<prefix>-fork-parent-<cut>`, forks it at its first `cut`
   * event into `<prefix>-fork-child-<cut>` (the prefix copied exactly) and runs `go on` there,
   * which must complete as turn 2. Both sessions stay open.
   */
  forkAndContinue(model: Model, prefix: string, cut: 'assistant/message' | 'tool/call', agent: Partial<AgentOptions>): Promise<ForkedRun>;
  /** Closes the child, then checks its stored log keeps the parent's `assistant/message` unchanged. */
  expectChildKeepsAssistant(run: ForkedRun): Promise<void>;
};

/** Registers the hooks of a strict-server test file (a temp JSONL store for the file, one server per test). */
export function strictServerSuite(): StrictServerSuite {
  let dir: TempDir;
  let store: SessionStore;
  let server: ModelServer | undefined;
  beforeAll(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterAll(async () => {
    await store.close();
    await dir.remove();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const suite: StrictServerSuite = {
    get store() {
      return store;
    },
    async serve(handler) {
      server = await startModelServer(handler);
      return server;
    },
    sent<Message>(index: number): Message[] {
      const requests = server!.requests;
      return (requests[index < 0 ? requests.length + index : index]!.body as { messages: Message[] }).messages;
    },
    async storedLog(id) {
      const decoded = decodeJsonl(await readFile(join(dir.path, `${id}.jsonl`), 'utf8'));
      expect(decoded.header.version).toBe(CURRENT_FORMAT_VERSION);
      expect(validate(CURRENT_FORMAT_VERSION, { header: decoded.header, events: decoded.events })).toEqual([]);
      return decoded.events;
    },
    async forkAndContinue(model, prefix, cut, options) {
      const parent = await store.create({ id: `${prefix}-fork-parent-${cut.replace('/', '-')}` });
      const agent = new Agent({ session: parent, model, tools: [readFileStub], cwd: process.cwd(), ...options });
      agent.enqueue('read a.txt');
      await agent.idle();
      await parent.close();
      const at = parent.events.find((event) => event.type === cut)!.seq;
      const childId = `${prefix}-fork-child-${cut.replace('/', '-')}`;
      const child = await store.fork(parent.id, { atSeq: at, id: childId });
      expect(child.events.slice(0, at + 1)).toEqual(parent.events.slice(0, at + 1));
      const childAgent = new Agent({ session: child, model, tools: [readFileStub], cwd: process.cwd(), ...options });
      childAgent.enqueue('go on');
      expect(await childAgent.idle()).toMatchObject({ isError: false, turn: 2 });
      return { parent, child, childId };
    },
    async expectChildKeepsAssistant({ parent, child, childId }) {
      await child.close();
      const stored = await suite.storedLog(childId);
      expect(stored.find((event) => event.type === 'assistant/message')).toEqual(
        parent.events.find((event) => event.type === 'assistant/message'),
      );
    },
  };
  return suite;
}
