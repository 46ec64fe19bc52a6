import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '@dsh/test-utils';
import { AgentError, createScriptedModel, resolveModel, type ModelRequest } from 'dsh-agent';
import { loadScriptedModel, parseScript } from './scripted-model.js';
import { agentErrorCode } from '../__fixtures__/agent-fixtures.js';

const request: ModelRequest = { messages: [{ id: 'u', role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };

describe('scripted model', () => {
  it('answers one response per request; arguments objects become their JSON text', async () => {
    const model = createScriptedModel([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { text: 'done', usage: { inputTokens: 3 } },
    ]);
    expect(await model.complete(request)).toEqual({ text: '', toolCalls: [{ name: 'read_file', arguments: '{"path":"a.txt"}' }] });
    expect(model.unused()).toEqual([{ text: 'done', usage: { inputTokens: 3 } }]);
    expect(await model.complete(request)).toEqual({ text: 'done', toolCalls: [], usage: { inputTokens: 3 } });
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]?.messages).toEqual(request.messages);
  });

  it('fails clearly when the script runs out', async () => {
    const model = createScriptedModel([{ text: 'only' }], { name: 'scripted:s.json' });
    await model.complete(request);
    const error = await model.complete(request).catch((caught: unknown) => caught);
    expect(AgentError.is(error) && error.code).toBe('SCRIPT_EXHAUSTED');
    expect((error as Error).message).toBe('scripted:s.json: request 2 has no response; the script has 1');
    expect(model.unused()).toEqual([]);
  });

  it('passes raw string arguments through and can script a failure', async () => {
    const model = createScriptedModel([{ toolCalls: [{ name: 't', arguments: '{not json' }] }, { error: { message: 'boom' } }]);
    expect((await model.complete(request)).toolCalls[0]?.arguments).toBe('{not json');
    expect(await agentErrorCode(model.complete(request))).toBe('SCRIPTED_FAILURE');
  });

  it('refuses a script that is not the SPEC §11 format, naming the entry', () => {
    expect(() => parseScript({ text: 'x' })).toThrow(expect.objectContaining({ code: 'INVALID_SCRIPT' }));
    expect(() => parseScript([{ text: 'x' }, { toolcalls: [] }], 'f.json')).toThrow(/f\.json: .* at \[1\]/);
    expect(() => parseScript([{ toolCalls: [{ arguments: {} }] }])).toThrow(/at \[0\.toolCalls\.0\.name\]/);
  });

  it('loads from a file, through resolveModel as well', async () => {
    await using dir = await makeTempDir();
    await writeFile(join(dir.path, 'script.json'), JSON.stringify([{ text: 'from file' }]));
    await writeFile(join(dir.path, 'broken.json'), '[{');
    expect((await (await loadScriptedModel(join(dir.path, 'script.json'))).complete(request)).text).toBe('from file');
    const resolved = await resolveModel('scripted:script.json', { cwd: dir.path });
    expect(resolved.name).toBe('scripted:script.json');
    expect((await resolved.complete(request)).text).toBe('from file');
    expect(await agentErrorCode(resolveModel('scripted:broken.json', { cwd: dir.path }))).toBe('INVALID_SCRIPT');
    expect(await agentErrorCode(resolveModel('scripted:missing.json', { cwd: dir.path }))).toBe('INVALID_SCRIPT');
  });
});

describe('resolveModel', () => {
  it('knows keyless, scripted:FILE, openai:NAME and anthropic:NAME, and nothing else', async () => {
    expect((await resolveModel('keyless')).name).toBe('keyless');
    expect((await resolveModel('openai:gpt-x', { env: { OPENAI_API_KEY: 'k' } })).name).toBe('openai:gpt-x');
    expect(await agentErrorCode(resolveModel('openai:gpt-x', { env: {} }))).toBe('MODEL_CONFIG');
    expect((await resolveModel('anthropic:claude-x', { env: { ANTHROPIC_API_KEY: 'k' } })).name).toBe('anthropic:claude-x');
    expect(await agentErrorCode(resolveModel('anthropic:claude-x', { env: {} }))).toBe('MODEL_CONFIG');
    expect(
      await agentErrorCode(resolveModel('anthropic:claude-x', { env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_THINKING_BUDGET: 'lots' } })),
    ).toBe('MODEL_CONFIG');
    expect(
      await agentErrorCode(resolveModel('anthropic:claude-x', { env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_THINKING_BUDGET: '100' } })),
    ).toBe('MODEL_CONFIG');
    expect((await resolveModel('anthropic:claude-x', { env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_THINKING_BUDGET: '4000' } })).name).toBe(
      'anthropic:claude-x',
    );
    // A bare gpt-… name means openai:… (SPEC §25 aliases, as claude-… means anthropic:…).
    expect((await resolveModel('gpt-4', { env: { OPENAI_API_KEY: 'k' } })).name).toBe('openai:gpt-4');
    for (const spec of ['', 'gpt', 'openai:', 'scripted:', 'anthropic:', 'claude:opus']) {
      expect(await agentErrorCode(resolveModel(spec))).toBe('INVALID_MODEL_SPEC');
    }
  });
});
