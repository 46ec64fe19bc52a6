/**
 * SPEC §26 "Finding the entry to cut at" against the real Claude Code (issue 41): Claude Code writes
 * a response one line per content block sharing `message.id` — here a text line, then the tool_use
 * line. `dsh show FILE --entries` lists the text line; `dsh fork FILE --at <its uuid>` and
 * `--at seq:<its listed seq>` both write the child that ends with that line (no tool_use, so no
 * closer), reporting the listed seq; Claude Code resumes it and sends the inherited prompt and the
 * text as the last assistant turn, without the call or its result, and no patch of its own.
 */
import { printSkip, runDsh } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { interopSkipReason, jsonlLines } from '../src/index.js';
import { TOOL_PATCHES } from './expect-dsh-closer.js';
import { messageBlocks } from './request-readers.js';
import { shellCall, startNativeSession } from './native-session.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop native fork inside a response', skip);

type Entry = { ref?: string; seq: number; type: string; summary: string; calls: unknown[] };
type ForkJson = { session_id: string; file: string; cut: number };

/** The child file's lines without the ones dsh appends (it appends none here): their uuids. */
async function uuidsOf(file: string): Promise<unknown[]> {
  return (await jsonlLines(file)).map((line) => line.uuid);
}

describe.skipIf(skip !== undefined)('a cut inside one Claude Code response (real Claude Code, offline)', () => {
  it('dsh fork FILE --at <text line before the tool_use> and --at seq:<its listed seq> end the child with that line; claude --resume sends it as the last assistant turn', async () => {
    await using session = await startNativeSession('claude-code', {
      callText: 'Let me check first.',
      call: shellCall('claude-code', 'call_mid_response', 'echo parent-ran-it'),
      replies: ['Parent done.', 'Child goes on.'],
    });
    const lines = await jsonlLines(session.file);
    const response = lines.filter((line) => line.type === 'assistant' && JSON.stringify(line.message).includes('Let me check first.'));
    expect(response, 'Claude Code wrote the text as a line of its own').toHaveLength(1);
    const textLine = response[0] as Record<string, unknown>;
    const messageId = (textLine.message as { id: string }).id;
    expect(lines.some((line) => line.parentUuid === textLine.uuid && (line.message as { id?: string } | undefined)?.id === messageId)).toBe(
      true,
    );

    const listed = await runDsh(['show', session.file, '--entries', '--json'], { cwd: session.home.cwd });
    expect(listed.code, listed.stderr).toBe(0);
    const entries = (JSON.parse(listed.stdout) as { entries: Entry[] }).entries;
    const entry = entries.find((candidate) => candidate.ref === textLine.uuid);
    expect(entry).toMatchObject({ type: 'assistant', calls: [] });
    const seq = (entry as Entry).seq;
    // The first entry listed with that seq is the text line: seq:N names it.
    expect(entries.find((candidate) => candidate.seq === seq)?.ref).toBe(textLine.uuid);

    const byRef = await runDsh(['fork', session.file, '--at', String(textLine.uuid), '--json'], { cwd: session.home.cwd });
    expect(byRef.code, byRef.stderr).toBe(0);
    const child = JSON.parse(byRef.stdout) as ForkJson;
    expect(child.cut).toBe(seq);
    const inherited = await uuidsOf(child.file);
    expect(inherited.at(-1)).toBe(textLine.uuid);
    const blocks = (await jsonlLines(child.file)).flatMap((line) => {
      const content = (line.message as { content?: unknown } | undefined)?.content;
      return Array.isArray(content) ? (content as { type?: string }[]).map((block) => block.type) : [];
    });
    expect(blocks.filter((type) => type === 'tool_use' || type === 'tool_result')).toEqual([]);

    const bySeq = await runDsh(['fork', session.file, '--at', `seq:${String(seq)}`, '--json'], { cwd: session.home.cwd });
    expect(bySeq.code, bySeq.stderr).toBe(0);
    const seqChild = JSON.parse(bySeq.stdout) as ForkJson;
    expect(seqChild.cut).toBe(seq);
    expect(await uuidsOf(seqChild.file)).toEqual(inherited);

    const request = await session.resume(child.session_id, 'and now?');
    const messages = (request.messages ?? []) as { role: string; content: unknown }[];
    const raw = JSON.stringify(messages);
    expect(raw).toContain('run it');
    expect(raw).toContain('Let me check first.');
    // Nothing of the response after the cut: neither the call nor its result, nor the parent's later turns.
    expect(messageBlocks(request).filter((block) => block.type === 'tool_use' || block.type === 'tool_result')).toEqual([]);
    expect(raw).not.toContain('parent-ran-it');
    expect(raw).not.toContain('Parent done.');
    const lastAssistant = messages.findLast((message) => message.role === 'assistant');
    expect(JSON.stringify(lastAssistant)).toContain('Let me check first.');
    for (const patch of TOOL_PATCHES['claude-code']) expect(raw).not.toContain(patch);
    expect(session.server.proxied).toEqual([]);
  });
});
