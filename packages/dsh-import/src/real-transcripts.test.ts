/**
 * The real session files in the shared data folder (see its SOURCES.md), read where they lie: never
 * copied into the repository. Skipped on a machine without that folder.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CURRENT_FORMAT_VERSION, encodeJsonl, validate } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { importTranscript } from 'dsh-import';
import { importedCalls, importedResults, sourceResults } from './__fixtures__/source-results.js';

// $DSH_TRANSCRIPTS, else the shared folder beside the checkout (../shared), else /work/shared.
const ROOT =
  [process.env.DSH_TRANSCRIPTS, join(import.meta.dirname, '../../../../shared/data/transcripts'), '/work/shared/data/transcripts'].find(
    (dir): dir is string => dir !== undefined && dir !== '' && existsSync(dir),
  ) ?? '';
const FILES =
  ROOT !== ''
    ? (['claude-code', 'codex', 'pi'] as const).flatMap((format) =>
        readdirSync(join(ROOT, format))
          .filter((f) => f.endsWith('.jsonl'))
          .map((file) => ({ format, file })),
      )
    : [];

/** The JSON objects of one physical line: one, or several written without a newline (pi, note P3), or none (torn). */
function objectsOf(line: string): Record<string, unknown>[] {
  const parse = (part: string) => {
    try {
      return JSON.parse(part) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  const whole = parse(line);
  if (whole !== undefined) return [whole];
  for (let at = line.indexOf('}{'); at !== -1; at = line.indexOf('}{', at + 1)) {
    const head = parse(line.slice(0, at + 1));
    if (head !== undefined) return [head, ...objectsOf(line.slice(at + 1))];
  }
  return [];
}

/**
 * What each format stores with its reasoning, read straight from the source lines (assistant lines
 * only; a torn line is skipped): Claude Code thinking signatures and redacted data,
 * Codex `encrypted_content`, pi `thinkingSignature`.
 */
function sourceReasoning(text: string): unknown[] {
  const out: unknown[] = [];
  for (const value of text.split('\n').flatMap(objectsOf)) {
    const payload = value.payload as Record<string, unknown> | undefined;
    if (value.type === 'response_item' && payload?.type === 'reasoning') out.push(payload.encrypted_content);
    const message = value.message as { role?: string; content?: unknown } | undefined;
    if ((value.type === 'assistant' || message?.role === 'assistant') && Array.isArray(message?.content)) {
      for (const block of message.content as Record<string, unknown>[]) {
        if (block.type === 'thinking') out.push(block.signature ?? block.thinkingSignature);
        if (block.type === 'redacted_thinking') out.push(block.data);
      }
    }
  }
  return out;
}

describe.skipIf(FILES.length === 0)('real transcripts', () => {
  describe.each(FILES)('$format/$file', ({ format, file }) => {
    const text = readFileSync(join(ROOT, format, file), 'utf8');
    const result = importTranscript(text);

    it('is recognised and every artifact validates', () => {
      expect(result.format).toBe(format);
      for (const session of result.sessions) expect(validate(CURRENT_FORMAT_VERSION, session)).toEqual([]);
    });

    it('pairs every call on the main line with exactly the result text the source recorded', () => {
      const source = sourceResults(text);
      const results = importedResults(result.sessions[0]?.events ?? []);
      for (const call of importedCalls(result.sessions[0]?.events ?? [])) {
        const recorded = source.get(call.callId);
        if (recorded === undefined) expect(results.has(call.callId)).toBe(false);
        else expect(results.get(call.callId)).toEqual(recorded);
      }
    });

    it('keeps every reasoning block of the source, with its signature or encrypted content verbatim', () => {
      const imported = result.sessions[0]?.events
        .filter((event) => event.type === 'assistant/message')
        .flatMap(
          (event) => (event.data as { message: { content: { type: string; providerData?: Record<string, unknown> }[] } }).message.content,
        )
        .filter((block) => block.type === 'reasoning')
        .map((block) => block.providerData?.signature ?? block.providerData?.redactedData ?? block.providerData?.encryptedContent);
      expect(imported).toEqual(sourceReasoning(text));
    });

    it('imports to identical bytes twice', () => {
      expect(importTranscript(text).sessions.map(encodeJsonl)).toEqual(result.sessions.map(encodeJsonl));
    });
  });

  const read = (format: string, file: string) => importTranscript(readFileSync(join(ROOT, format, file), 'utf8'));

  it('Claude Code: every call of a 1,500-line session with compaction lands on the main line', () => {
    const { sessions } = read('claude-code', 'spotter-4d5611e5-main.jsonl');
    expect(sessions).toHaveLength(1);
    const events = sessions[0]?.events ?? [];
    expect(importedCalls(events)).toHaveLength(150);
    expect(events.filter((e) => e.type === 'tool/result')).toHaveLength(150);
    expect(events.filter((e) => e.surfaceOp !== undefined)).toHaveLength(1);
  });

  it('Claude Code: the live prefix ends with its Bash call open', () => {
    const events = read('claude-code', 'codemie-e9fb405b-turn1-live-prefix.jsonl').sessions[0]?.events ?? [];
    expect(events[events.length - 1]).toMatchObject({
      type: 'tool/call',
      data: { callId: 'toolu_bdrk_01NNGBKLENmr7j3TfUKZW7rz', name: 'Bash', effect: 'side-effect' },
    });
  });

  it('pi: the line holding two objects is read as two entries, with a warning', () => {
    const { sessions, warnings } = read('pi', 'pi-mono-session-v1-concatenated-line.jsonl');
    expect(warnings[0]).toMatch(/^line 440: 2 JSON objects/);
    expect(importedCalls(sessions[0]?.events ?? [])).toHaveLength(189);
  });

  it('pi: the six unanswered calls stay unanswered inside closed steps', () => {
    const events = read('pi', 'pi-mono-before-compaction-v1.jsonl').sessions[0]?.events ?? [];
    const answered = new Set(
      events.filter((e) => e.type === 'tool/result').map((e) => (e.data as { message: { callId: string } }).message.callId),
    );
    expect(importedCalls(events).filter((c) => !answered.has(c.callId))).toHaveLength(6);
  });
});
