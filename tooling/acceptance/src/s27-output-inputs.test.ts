/**
 * SPEC §27, the bullets "What the CLI prints from a session or a session file" and "Bounded inputs":
 * the real `dsh` bin over a Claude Code file carrying terminal escapes, print mode's prompt bound,
 * the Agent SDK store's entry bound, and a model server that never sends headers.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeCodeTranscript, runDsh } from '@dsh/test-utils';
import { AgentError, createOpenAIModel } from 'dsh-agent';
import { ClaudeStoreError, createClaudeSessionStore, type SessionStoreEntry } from 'dsh-claude-agent-sdk';
import { createMemoryStore } from 'dsh-session';

const CLAUDE_ID = '5f0c3a52-1111-4222-8333-444455556666';
const HOSTILE = '\u001b]52;c;cHduZWQ=\u0007\u001b[2J\u009b31m\u202e';
// eslint-disable-next-line no-control-regex -- control characters are what the test looks for
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsh-s27-output-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('SPEC §27 what the CLI prints from a session or a session file', () => {
  it('shows C0 and C1 controls and bidi overrides escaped (dsh sessions --claude, show, import, sessions); an imported title is printable', async () => {
    const home = join(dir, 'home');
    const folder = join(home, '.claude', 'projects', '-work-app');
    await mkdir(folder, { recursive: true });
    const text = claudeCodeTranscript({ turns: 1, sessionId: CLAUDE_ID })
      .text.replaceAll('"cwd":"/work/app"', `"cwd":${JSON.stringify(`/work/app${HOSTILE}`)}`)
      .replaceAll('Looking at module 1', `Looking at ${JSON.stringify(HOSTILE).slice(1, -1)}`)
      .concat(`${JSON.stringify({ type: 'custom-title', customTitle: `named ${HOSTILE}`, sessionId: CLAUDE_ID })}\n`);
    const file = join(folder, `${CLAUDE_ID}.jsonl`);
    await writeFile(file, text);
    const env = { HOME: home, DSH_HOME: join(dir, 'dsh') };
    const outputs: string[] = [];
    for (const args of [['sessions', '--claude'], ['show', CLAUDE_ID], ['import', file], ['sessions']]) {
      const run = await runDsh(args, { env });
      expect(run.code, run.stderr).toBe(0);
      outputs.push(run.stdout + run.stderr);
    }
    expect(outputs.filter((output) => RAW_CONTROL.test(output))).toStrictEqual([]);
    expect(outputs[1]).toContain('\\x1b]52;c;cHduZWQ=\\x07\\x1b[2J\\x9b31m\\u202e');
    const listed = JSON.parse((await runDsh(['sessions', '--json'], { env })).stdout) as { title?: string }[];
    expect(listed.map((item) => item.title)).toStrictEqual(['named ]52;c;cHduZWQ= [2J 31m']);
  });
});

describe('SPEC §27 bounded inputs', () => {
  it('print mode refuses a prompt (stdin and argument together) over --max-bytes with PROMPT_TOO_LARGE before anything is written', async () => {
    const data = join(dir, 'data');
    const run = await runDsh(['-p', 'y'.repeat(50), '--max-bytes', '100', '--data', data], { stdin: 'x'.repeat(60) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('PROMPT_TOO_LARGE');
    expect(existsSync(data)).toBe(false);
    expect((await runDsh(['-p', '--help'])).stdout).toContain('--system-prompt-file');
  });

  it('the Agent SDK store refuses a throwing getter, a proxy and an oversized entry with INVALID_ENTRY, never a raw Error', async () => {
    const claude = createClaudeSessionStore({ store: createMemoryStore() });
    const key = { projectKey: '-work-app', sessionId: 's27' };
    const hostile: unknown[][] = [
      [
        Object.defineProperty({}, 'type', {
          get: () => {
            throw new Error('boom');
          },
          enumerable: true,
        }),
      ],
      [
        new Proxy(
          { type: 'user' },
          {
            ownKeys: () => {
              throw new Error('boom');
            },
          },
        ),
      ],
      [{ type: 'user', text: 'x'.repeat(65 * 1024 * 1024) }],
    ];
    for (const batch of hostile) {
      const error = await claude.append(key, batch as SessionStoreEntry[]).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(ClaudeStoreError.is(error) && error.code).toBe('INVALID_ENTRY');
    }
    expect(await claude.load(key)).toBeNull();
    await claude.close();
  });

  it('a model server that sends no headers fails the turn after at most 2 attempts, whatever maxAttempts says', async () => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    let attempts = 0;
    const model = createOpenAIModel({
      model: 'm',
      baseUrl: `http://127.0.0.1:${String(port)}/v1`,
      apiKey: 'k',
      headersTimeoutMs: 50,
      retry: { maxAttempts: 4, initialDelayMs: 1, maxDelayMs: 1 },
      fetch: (input, init) => {
        attempts += 1;
        return globalThis.fetch(input, init);
      },
    });
    const error = await model.complete({ messages: [{ id: 'u', role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    expect(AgentError.is(error) && error.code).toBe('MODEL_TIMEOUT');
    expect(attempts).toBe(2);
  });
});
