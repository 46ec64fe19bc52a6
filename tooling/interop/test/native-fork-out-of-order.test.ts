/**
 * SPEC §26 "Lines out of order" against the real Claude Code: interactive Claude Code sometimes
 * writes a line before the line it follows. Here the session's first prompt is moved after the line
 * that follows it (as typing fast leaves it); `dsh fork FILE --at <the last answer>` writes the
 * child's lines in chain order, and Claude Code resumes the child with its whole history — the
 * prompt, the call and its result, the answer — in that order.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { printSkip, runDsh } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { interopSkipReason, jsonlLines } from '../src/index.js';
import { TOOL_PATCHES } from './expect-dsh-closer.js';
import { messageBlocks } from './request-readers.js';
import { shellCall, startNativeSession } from './native-session.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop native fork of lines out of order', skip);

describe.skipIf(skip !== undefined)('a Claude Code file with lines out of order (real Claude Code, offline)', () => {
  it('dsh fork FILE --at <last answer> of a file whose prompt is written after the line that follows it; claude --resume sends the whole history in chain order', async () => {
    await using session = await startNativeSession('claude-code', {
      call: shellCall('claude-code', 'call_out_of_order', 'echo parent-ran-it'),
      replies: ['Parent done.', 'Child goes on.'],
      prompt: 'first prompt here',
    });
    const raw = (await readFile(session.file, 'utf8')).trimEnd().split('\n');
    const values = raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    const prompt = values.findIndex((value) => value.type === 'user' && JSON.stringify(value.message).includes('first prompt here'));
    const follower = values.findIndex((value) => value.parentUuid === values[prompt]?.uuid);
    expect(prompt).toBeGreaterThanOrEqual(0);
    expect(follower).toBeGreaterThan(prompt);
    // The prompt written right after the line that follows it.
    const reordered = [...raw];
    const [line] = reordered.splice(prompt, 1);
    reordered.splice(follower, 0, line as string);
    await writeFile(session.file, `${reordered.join('\n')}\n`);

    const answer = values.findLast((value) => value.type === 'assistant' && JSON.stringify(value.message).includes('Parent done.'));
    const forked = await runDsh(['fork', session.file, '--at', String(answer?.uuid), '--json'], { cwd: session.home.cwd });
    expect(forked.code, forked.stderr).toBe(0);
    const child = JSON.parse(forked.stdout) as { session_id: string; file: string };
    // The child's lines follow the chain: each line after the line it follows.
    const lines = await jsonlLines(child.file);
    const seen = new Set<unknown>([null, undefined]);
    for (const value of lines) {
      if (value.uuid === undefined) continue;
      expect(seen.has(value.parentUuid) || !lines.some((other) => other.uuid === value.parentUuid), JSON.stringify(value.uuid)).toBe(true);
      seen.add(value.uuid);
    }
    expect(lines.at(-1)?.uuid).toBe(answer?.uuid);

    const request = await session.resume(child.session_id, 'and now?');
    const text = JSON.stringify(request.messages);
    const order = ['first prompt here', 'call_out_of_order', 'parent-ran-it', 'Parent done.', 'and now?'].map((part) => text.indexOf(part));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(messageBlocks(request).filter((block) => block.type === 'tool_result')).toHaveLength(1);
    for (const patch of TOOL_PATCHES['claude-code']) expect(text).not.toContain(patch);
    expect(session.server.proxied).toEqual([]);
  });
});
