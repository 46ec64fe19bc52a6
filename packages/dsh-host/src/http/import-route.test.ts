import { afterEach, describe, expect, it } from 'vitest';
import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import { createMemoryStore, type SessionStore } from 'dsh-session';
import { importSourceOf, importTranscript } from 'dsh-import';
import { createHost, HOST_ERROR_CODES, openApiDocument, type Host } from 'dsh-host';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup(http: { maxBodyBytes?: number } = {}): { host: Host; store: SessionStore } {
  const store = createMemoryStore();
  const host = createHost({ store, http });
  cleanups.push(async () => {
    await host.close();
    await store.close();
  });
  return { host, store };
}

type Answer = {
  format: string;
  warnings: string[];
  sessions: { id: string; parentSession: string | null; forkCut: number | null; events: number; kept?: true }[];
};
const importOperation = (
  openApiDocument().paths as Record<
    string,
    Record<
      string,
      {
        responses: Record<
          string,
          {
            content?: Record<
              string,
              { schema: { allOf?: { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } }[] } }
            >;
          }
        >;
      }
    >
  >
)['/api/import']?.post;

/** POST /api/import in-process; fails on any status or code the operation does not document. */
async function post(
  host: Host,
  body: unknown,
  path = '/api/import',
): Promise<{ status: number; body: Answer & { error?: { code: string; message: string } } }> {
  const response = await host.fetch(
    new Request(`http://dsh.test${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
  const parsed = (await response.json()) as Answer & { error?: { code: string; message: string } };
  if (path === '/api/import') {
    const documented = importOperation?.responses[String(response.status)];
    expect(documented, `POST /api/import answered ${response.status}, which it does not document`).toBeDefined();
    if (response.status >= 400)
      expect(documented?.content?.['application/json']?.schema.allOf?.[1]?.properties?.error?.properties?.code?.enum).toContain(
        parsed.error?.code,
      );
  }
  return { status: response.status, body: parsed };
}

describe('POST /api/import (the host route every importer shares)', () => {
  it('imports a transcript and stores each of its sessions, titled, so the list shows none untitled', async () => {
    const { host } = setup();
    const reply = await post(host, { text: claudeCodeTranscript({ turns: 4, branchAtTurn: 3 }).text });
    expect(reply.status).toBe(201);
    expect(reply.body.format).toBe('claude-code');
    expect(reply.body.sessions.map((s) => s.parentSession)).toEqual([null, reply.body.sessions[0]?.id]);
    const listed = await host.list();
    expect(listed.map((s) => s.id).sort()).toEqual(reply.body.sessions.map((s) => s.id).sort());
    for (const session of listed) expect(session.title).toEqual(expect.any(String));
    expect((await post(host, { text: piTranscript({ turns: 2 }).text })).body.format).toBe('pi');
  });

  it('imports a main session with its subagent file in either order, without SESSION_EXISTS, linking the spawning call', async () => {
    const mainText = claudeCodeTranscript({ turns: 3, spawnsAgent: 'a77aa77' }).text;
    const agentText = claudeCodeTranscript({ turns: 2, agentId: 'a77aa77' }).text;
    for (const files of [
      [{ text: mainText }, { text: agentText }],
      [{ text: agentText }, { text: mainText }],
    ]) {
      const { host } = setup();
      const reply = await post(host, { files });
      expect(reply.status).toBe(201);
      const agentId = reply.body.sessions.find((s) => s.id.endsWith('-agent-a77aa77'))?.id ?? '';
      expect(importSourceOf((await host.observe(agentId)).events)?.spawnedBy).toBe('toolu_01FxTask0000000000000001');
    }
    // One after the other: the subagent first, then its main session.
    const { host } = setup();
    expect((await post(host, { text: agentText })).status).toBe(201);
    expect((await post(host, { text: mainText })).status).toBe(201);
  });

  it('imports a Codex fork rollout as a fork child of a parent rollout that is already stored', async () => {
    const { host } = setup();
    const parent = codexTranscript({ turns: 4, ordinals: true });
    const end = (
      JSON.parse(parent.text.split('\n').find((l) => l.includes('"task_started"') && l.includes('-000000000003"')) ?? '{}') as {
        ordinal: number;
      }
    ).ordinal;
    expect((await post(host, { text: parent.text })).status).toBe(201);
    const fork = await post(host, {
      text: codexTranscript({
        turns: 1,
        sessionId: '019e3000-2222-7333-8444-555566667777',
        forkOf: { threadId: parent.sessionId, endOrdinalExclusive: end },
      }).text,
    });
    expect(fork.status).toBe(201);
    expect(fork.body.sessions[0]).toMatchObject({ parentSession: parent.sessionId, forkCut: expect.any(Number) as number });
    expect((await host.lineage('019e3000-2222-7333-8444-555566667777')).ancestors.map((a) => a.id)).toEqual([parent.sessionId]);
  });

  it('refuses what it cannot import with codes from the host error table, and stores nothing', async () => {
    const { host, store } = setup();
    const text = claudeCodeTranscript({ turns: 2 }).text;
    expect((await post(host, { text })).status).toBe(201);
    const again = await post(host, { text });
    expect([again.status, again.body.error?.code]).toEqual([409, 'SESSION_EXISTS']);
    const refusals = [
      [{ text: 'just some notes\nnot a session\n' }, 400, 'MALFORMED_LINE'],
      [{ text: '{"hello":1}\n{"hello":2}\n' }, 400, 'UNKNOWN_FORMAT'],
      [{ text: claudeCodeTranscript({ turns: 1 }).text, format: 'codex' }, 400, 'FORMAT_MISMATCH'],
      [{ text: '' }, 400, 'EMPTY_TRANSCRIPT'],
      [{ text: 'x', files: [{ text: 'x' }] }, 400, 'BAD_REQUEST'],
      [{ text: 'x', format: 'word' }, 400, 'BAD_REQUEST'],
      [{ files: [{ text: codexTranscript().text }, { text: '{"hello":1}\n' }] }, 400, 'UNKNOWN_FORMAT'],
    ] as const;
    for (const [body, status, code] of refusals) {
      const reply = await post(host, body);
      expect([reply.status, reply.body.error?.code], JSON.stringify(body).slice(0, 80)).toEqual([status, code]);
      expect(Object.hasOwn(HOST_ERROR_CODES, code)).toBe(true);
    }
    // The Codex file of the refused pair was not stored.
    expect(await store.has(codexTranscript().sessionId)).toBe(false);
  });

  it('finishes an import that was cut short: stored sessions of the same file are kept, the rest added', async () => {
    const { host, store } = setup();
    const text = piTranscript({ turns: 6, branchAfterTurn: 2 }).text;
    const [main] = importTranscript(text).sessions;
    await store.import(main as NonNullable<typeof main>);
    const reply = await post(host, { text });
    expect(reply.status).toBe(201);
    expect(reply.body.sessions.map((s) => s.kept === true)).toEqual([true, false]);
  });

  it('two imports of one file at once: one stores every session, the other is refused, nothing is stored twice', async () => {
    const { host, store } = setup();
    const text = claudeCodeTranscript({ turns: 4, branchAtTurn: 2 }).text;
    const replies = await Promise.all([post(host, { text }), post(host, { text })]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409]);
    expect(replies.find((reply) => reply.status === 409)?.body.error?.code).toBe('SESSION_EXISTS');
    expect((await store.list()).length).toBe(2);
  });

  it('a session id stored with other events than the file has for it is a conflict, and nothing of the file is stored', async () => {
    const { host, store } = setup();
    await store.import(importTranscript(claudeCodeTranscript({ turns: 2 }).text).sessions[0] as Parameters<SessionStore['import']>[0]);
    const reply = await post(host, { text: claudeCodeTranscript({ turns: 4, branchAtTurn: 2 }).text });
    expect([reply.status, reply.body.error?.code]).toEqual([409, 'SESSION_EXISTS']);
    expect(reply.body.error?.message).toContain('with other events');
    expect((await store.list()).length).toBe(1);
  });

  it('with skipImported, a session the store holds with other events (the source went on) and its fork children are left as they are, with a warning', async () => {
    const { host, store } = setup();
    await host.importTranscripts([{ text: claudeCodeTranscript({ turns: 2 }).text }]);
    const grown = await host.importTranscripts([{ text: claudeCodeTranscript({ turns: 4, branchAtTurn: 3 }).text, name: 'grown.jsonl' }], {
      skipImported: true,
    });
    expect(grown.files[0]?.sessions.map((s) => s.skipped === true)).toEqual([true, true]);
    expect(grown.files[0]?.warnings).toContainEqual(expect.stringContaining('is stored with other events'));
    expect((await store.list()).length).toBe(1);
  });

  it('takes a transcript larger than the body limit of the other routes', async () => {
    const { host } = setup({ maxBodyBytes: 4096 });
    const text = claudeCodeTranscript({ turns: 2 }).text;
    expect(text.length).toBeGreaterThan(4096);
    expect((await post(host, { text })).status).toBe(201);
    const other = await post(host, { title: 'x'.repeat(5000) }, '/api/sessions');
    expect([other.status, other.body.error?.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });
});
