import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import { CURRENT_FORMAT_VERSION, validate, type ContentBlock, type SessionEvent } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { importTranscript } from 'dsh-import';

type Reasoning = Extract<ContentBlock, { type: 'reasoning' }>;

/** Every reasoning block of the main line's assistant messages, in log order. */
function reasoningOf(events: readonly SessionEvent[]): Reasoning[] {
  return events
    .filter((event) => event.type === 'assistant/message')
    .flatMap((event) => (event.data as { message: { content: ContentBlock[] } }).message.content)
    .filter((block): block is Reasoning => block.type === 'reasoning');
}

/** The JSON lines of a source file (every line of these fixtures parses). */
function sourceLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function importMain(text: string): SessionEvent[] {
  const result = importTranscript(text);
  for (const session of result.sessions) expect(validate(CURRENT_FORMAT_VERSION, session)).toEqual([]);
  expect(result.warnings.filter((warning) => /thinking|reasoning/.test(warning))).toEqual([]);
  return result.sessions[0]?.events ?? [];
}

describe('reasoning is imported as V5 reasoning blocks, with what the provider needs back', () => {
  it('Claude Code: thinking keeps its text and signature, redacted_thinking its data, in source order', () => {
    const text = claudeCodeTranscript({ turns: 14 }).text;
    const expected = sourceLines(text)
      .filter((line) => line.type === 'assistant')
      .flatMap((line) => (line.message as { content: Record<string, string>[] }).content)
      .flatMap((block): Reasoning[] => {
        if (block.type === 'thinking')
          return [
            {
              type: 'reasoning',
              text: block.thinking ?? '',
              providerData: { wire: 'anthropic-messages', signature: block.signature ?? '' },
            },
          ];
        if (block.type === 'redacted_thinking')
          return [{ type: 'reasoning', text: '', providerData: { wire: 'anthropic-messages', redactedData: block.data ?? '' } }];
        return [];
      });
    expect(expected.filter((block) => block.providerData?.redactedData !== undefined).length).toBeGreaterThan(0);
    expect(reasoningOf(importMain(text))).toEqual(expected);
  });

  it('Claude Code: a thinking block stands before the text and calls of its response, as the source wrote them', () => {
    const events = importMain(claudeCodeTranscript({ turns: 6 }).text);
    const withThinking = events
      .filter((event) => event.type === 'assistant/message')
      .map((event) => (event.data as { message: { content: ContentBlock[] } }).message.content.map((block) => block.type))
      .filter((types) => types.includes('reasoning'));
    expect(withThinking.length).toBeGreaterThan(0);
    for (const types of withThinking)
      expect(types.slice(0, types.lastIndexOf('reasoning') + 1).every((type) => type === 'reasoning')).toBe(true);
  });

  it('Codex: a reasoning item becomes the first block of its response: summary text, encrypted_content and id kept', () => {
    const text = codexTranscript({ turns: 14 }).text;
    const expected = sourceLines(text)
      .map((line) => line.payload as Record<string, unknown> | undefined)
      .filter((payload) => payload?.type === 'reasoning')
      .map((payload): Reasoning => ({
        type: 'reasoning',
        text: (payload?.summary as { text: string }[]).map((part) => part.text).join('\n\n'),
        providerData: { wire: 'openai-responses', encryptedContent: String(payload?.encrypted_content), id: String(payload?.id) },
      }));
    expect(expected.length).toBeGreaterThan(0);
    const events = importMain(text);
    expect(reasoningOf(events)).toEqual(expected);
    for (const event of events.filter((e) => e.type === 'assistant/message')) {
      const content = (event.data as { message: { content: ContentBlock[] } }).message.content;
      if (content.some((block) => block.type === 'reasoning')) expect(content[0]?.type).toBe('reasoning');
    }
  });

  it('pi: thinking of an anthropic-messages response keeps its signature; a redacted one its data', () => {
    const text = piTranscript({ turns: 20 }).text;
    const expected = sourceLines(text)
      .map((line) => line.message as { role?: string; content?: Record<string, unknown>[] } | undefined)
      .filter((message) => message?.role === 'assistant')
      .flatMap((message) => message?.content ?? [])
      .filter((block) => block.type === 'thinking')
      .map((block): Reasoning =>
        block.redacted === true
          ? { type: 'reasoning', text: '', providerData: { wire: 'anthropic-messages', redactedData: String(block.thinkingSignature) } }
          : {
              type: 'reasoning',
              text: String(block.thinking),
              providerData: { wire: 'anthropic-messages', signature: String(block.thinkingSignature) },
            },
      );
    expect(expected.some((block) => block.providerData?.redactedData !== undefined)).toBe(true);
    expect(reasoningOf(importMain(text))).toEqual(expected);
  });

  it('pi: an OpenAI-compatible response names its reasoning field; other apis keep their signature under pi', () => {
    const header = JSON.stringify({
      type: 'session',
      version: 3,
      id: 'pi-reasoning',
      timestamp: '2026-11-30T10:00:00.000Z',
      cwd: '/work/app',
    });
    const entry = (id: string, parentId: string | null, message: object) =>
      JSON.stringify({ type: 'message', id, parentId, timestamp: '2026-11-30T10:00:01.000Z', message });
    const assistant = (api: string, block: object) => ({
      role: 'assistant',
      api,
      provider: 'x',
      model: 'm',
      content: [block, { type: 'text', text: 'ok' }],
      stopReason: 'stop',
      usage: { input: 1, output: 1 },
    });
    const text = [
      header,
      entry('a0000001', null, { role: 'user', content: 'one', timestamp: 1 }),
      entry(
        'a0000002',
        'a0000001',
        assistant('openai-completions', { type: 'thinking', thinking: 'deep', thinkingSignature: 'reasoning_content' }),
      ),
      entry('a0000003', 'a0000002', { role: 'user', content: 'two', timestamp: 2 }),
      entry(
        'a0000004',
        'a0000003',
        assistant('openai-responses', { type: 'thinking', thinking: 'summary', thinkingSignature: '{"type":"reasoning","id":"rs_1"}' }),
      ),
      entry('a0000005', 'a0000004', { role: 'user', content: 'three', timestamp: 3 }),
      entry('a0000006', 'a0000005', assistant('google-generative-ai', { type: 'thinking', thinking: 'plain' })),
    ].join('\n');
    expect(reasoningOf(importMain(`${text}\n`))).toEqual([
      { type: 'reasoning', text: 'deep', providerData: { wire: 'openai-chat', field: 'reasoning_content' } },
      {
        type: 'reasoning',
        text: 'summary',
        providerData: { pi: { api: 'openai-responses', thinkingSignature: '{"type":"reasoning","id":"rs_1"}' } },
      },
      { type: 'reasoning', text: 'plain' },
    ]);
  });
});
