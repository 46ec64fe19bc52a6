/**
 * SPEC §25 — a real model by default, through the real `dsh` bin: the environment's key picks the
 * adapter (keyless said aloud otherwise), Claude Code's model names work, an import records a spec
 * dsh runs, and a spec it cannot run is refused before the turn. Fake model servers on 127.0.0.1.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore } from 'dsh-session';
import {
  claudeCodeTranscript,
  makeTempDir,
  type ModelServer,
  runDsh,
  startModelServer,
  streamedReply,
  type TempDir,
} from '@dsh/test-utils';

let dir: TempDir;
let data: string;
const servers: ModelServer[] = [];
beforeEach(async () => {
  dir = await makeTempDir('dsh-acc-s25m-');
  data = join(dir.path, 'data');
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  await dir.remove();
});

async function server(reply: Parameters<typeof startModelServer>[0]): Promise<ModelServer> {
  const started = await startModelServer(reply);
  servers.push(started);
  return started;
}

async function events(id: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const store = await openSessionStore({ dir: data });
  try {
    return (await store.inspect(id)).events as unknown as { type: string; data: Record<string, unknown> }[];
  } finally {
    await store.close();
  }
}

const run = (args: string[], env: Record<string, string> = {}) =>
  runDsh([...args, '--data', data, '--no-checkpoints'], { cwd: dir.path, env });
const modelsAsked = (model: ModelServer) => model.requests.map((request) => (request.body as { model: string }).model);

describe('§25 a real model by default', () => {
  it(
    '§25 no --model: ANTHROPIC_API_KEY → Anthropic default; else OPENAI_API_KEY → OpenAI default; else keyless, said once',
    { timeout: 120_000 },
    async () => {
      const anthropic = await server(() => streamedReply('anthropic', { text: 'from anthropic' }));
      const openai = await server(() => streamedReply('chat', { text: 'from openai' }));
      const both = {
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: anthropic.origin,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${openai.origin}/v1`,
      };
      const first = await run(['-p', 'hi', '--output-format', 'json'], both);
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ result: 'from anthropic', model: 'anthropic:claude-sonnet-4-5', is_error: false });
      expect(modelsAsked(anthropic)).toEqual(['claude-sonnet-4-5']);

      const second = await run(['-p', 'hi', '--output-format', 'json'], {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${openai.origin}/v1`,
      });
      expect(second.code, second.stderr).toBe(0);
      expect(JSON.parse(second.stdout)).toMatchObject({ result: 'from openai', model: 'openai:gpt-4.1' });
      expect(modelsAsked(openai)).toEqual(['gpt-4.1']);

      const keyless = await run(['-p', 'hi', '--output-format', 'json']);
      expect(keyless.code, keyless.stderr).toBe(0);
      expect((JSON.parse(keyless.stdout) as { model: string }).model).toBe('keyless');
      expect(keyless.stderr.split('\n').filter((line) => line.includes('keyless offline model'))).toEqual([
        expect.stringMatching(/neither ANTHROPIC_API_KEY nor OPENAI_API_KEY is set and no --model/),
      ]);
    },
  );

  it('§25 sonnet, opus, haiku and claude-… mean anthropic:…, recorded as that spec', { timeout: 120_000 }, async () => {
    const anthropic = await server(() => streamedReply('anthropic', { text: 'ok' }));
    const env = { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: anthropic.origin };
    const ids: string[] = [];
    for (const model of ['sonnet', 'opus', 'haiku', 'claude-3-7-sonnet-latest']) {
      const ran = await run(['-p', 'hi', '--model', model, '--output-format', 'json'], env);
      expect(ran.code, ran.stderr).toBe(0);
      ids.push((JSON.parse(ran.stdout) as { session_id: string }).session_id);
    }
    expect(modelsAsked(anthropic)).toEqual(['claude-sonnet-4-5', 'claude-opus-4-5', 'claude-haiku-4-5', 'claude-3-7-sonnet-latest']);
    const recorded = (await events(ids[0] ?? '')).find((event) => event.type === 'session/config')?.data.model;
    expect(recorded).toBe('anthropic:claude-sonnet-4-5');
  });

  it('§25 an imported Claude Code session records anthropic:claude-… and resumes on it', { timeout: 120_000 }, async () => {
    const anthropic = await server(() => streamedReply('anthropic', { text: 'resumed' }));
    const file = join(dir.path, 'session.jsonl');
    await writeFile(file, claudeCodeTranscript({ turns: 2 }).text);
    const imported = await runDsh(['import', file, '--name', 'imported', '--data', data], { cwd: dir.path });
    expect(imported.code, imported.stderr).toBe(0);
    const env = { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: anthropic.origin };
    const resumed = await run(['-p', 'go on', '--resume', 'imported', '--cwd', dir.path, '--output-format', 'json'], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ result: 'resumed', model: 'anthropic:claude-opus-4-6' });
    expect(modelsAsked(anthropic)).toEqual(['claude-opus-4-6']);
  });

  it(
    '§25 a recorded spec dsh cannot run is refused before the turn starts, nothing recorded, the hint naming --model',
    { timeout: 120_000 },
    async () => {
      const script = join(dir.path, 'script.json');
      await writeFile(script, JSON.stringify([{ text: 'one' }]));
      const first = await run(['-p', 'hi', '--model', `scripted:${script}`, '--name', 's', '--output-format', 'json']);
      expect(first.code, first.stderr).toBe(0);
      const id = (JSON.parse(first.stdout) as { session_id: string }).session_id;
      const before = (await events(id)).length;
      await rm(script);
      const refused = await run(['-p', 'again', '--resume', 's']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/INVALID_SCRIPT/);
      expect(refused.stderr).toMatch(/hint:.*--resume ID --model MODEL/);
      const after = await events(id);
      expect(after.filter((event) => event.type === 'turn/start')).toHaveLength(1);
      expect(after.filter((event) => event.type === 'input/queued')).toHaveLength(1);
      expect(after.length).toBeLessThanOrEqual(before + 2);
      const switched = await run(['-p', 'again', '--resume', 's', '--model', 'keyless', '--output-format', 'json']);
      expect(switched.code, switched.stderr).toBe(0);
    },
  );
});
