/**
 * SPEC §26 "pi v1 files": a pi session written without entry ids (version 1: no `version` in the
 * header, no `id`/`parentId` on entries — the real pi's own session, rewritten in that shape) forks at
 * the `seq:N` of its call in `dsh import`'s reading; the child holds every line up to the call (not
 * the header plus the file's last line), and the real pi 0.73 resumes it and sends the call followed
 * by dsh's forked result verbatim.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { printSkip, runDsh } from '@dsh/test-utils';
import { syntheticResultText } from 'dsh-codec';
import { importTranscript } from 'dsh-import';
import { describe, expect, it } from 'vitest';
import { interopSkipReason, jsonlLines } from '../src/index.js';
import { expectDshCloser } from './expect-dsh-closer.js';
import { startNativeSession, shellCall } from './native-session.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop pi v1 fork', skip);

describe.skipIf(skip !== undefined)('pi resumes what dsh fork writes from a version 1 file (real pi, offline)', () => {
  it('dsh fork V1FILE --at seq:<the call>: the child keeps every line up to the call, and pi sends dsh’s result after it', async () => {
    const callId = 'call_fork_pi_v1';
    await using session = await startNativeSession('pi', {
      call: shellCall('pi', callId, 'echo parent-ran-it'),
      replies: ['Parent done.', 'Child goes on.'],
    });
    const [header, ...entries] = await jsonlLines(session.file);
    const { version: _version, ...v1Header } = header as Record<string, unknown>;
    const v1Lines = [v1Header, ...entries.map(({ id: _id, parentId: _parentId, ...entry }) => entry)];
    const v1File = join(dirname(session.file), '2026-01-01T00-00-00-000Z_v1-source.jsonl');
    const v1Text = `${v1Lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
    await writeFile(v1File, v1Text);
    const events = importTranscript(v1Text).sessions[0]?.events ?? [];
    const call = events.find((event) => event.type === 'tool/call');
    expect(call).toBeDefined();

    const forked = await runDsh(['fork', v1File, '--at', `seq:${String(call?.seq)}`, '--json'], { cwd: session.home.cwd });
    expect(forked.code, forked.stderr).toBe(0);
    const result = JSON.parse(forked.stdout) as { session_id: string; file: string; cut: number };
    expect(result.cut).toBe(call?.seq);
    const child = (await readFile(result.file, 'utf8')).trimEnd().split('\n');
    const callLine = v1Lines.findIndex((line) => JSON.stringify(line).includes('"toolCall"'));
    // The lines up to the call as written (the header rewritten), then dsh's one result.
    expect(child.slice(1, -1)).toStrictEqual(
      v1Text
        .trimEnd()
        .split('\n')
        .slice(1, callLine + 1),
    );
    expect(child).toHaveLength(callLine + 2);
    expect(await readFile(v1File, 'utf8')).toBe(v1Text);

    const request = await session.resume(result.file, 'and now?');
    expectDshCloser('pi', request, callId, syntheticResultText('forked', true, 'side-effect'));
    expect(JSON.stringify(request)).not.toContain('parent-ran-it\\n');
    expect(session.server.proxied).toEqual([]);
  });
});
