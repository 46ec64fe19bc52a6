/**
 * SPEC §26 "Finding the entry to cut at" through the real bin: `dsh show FILE --entries` lists the
 * main line's entries (REF, seq, the tool's type, a summary, calls marked), `--json` the same as data;
 * a listed seq is what `dsh fork FILE --at REF` reports and `--at seq:N` takes back; `INVALID_CUT`
 * points at the listing.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeCodeTranscript, makeTempDir, runDsh, type TempDir } from '@dsh/test-utils';
import { afterEach, beforeEach, expect, it } from 'vitest';

type Listed = {
  file: string;
  format: string;
  entries: { ref?: string; seq: number; type: string; summary: string; calls: { id: string; name: string }[] }[];
};

let work: TempDir;
let file: string;
beforeEach(async () => {
  work = await makeTempDir('dsh-show-entries-');
  file = join(work.path, 'session one.jsonl');
  await writeFile(file, claudeCodeTranscript({ turns: 2 }).text);
});
afterEach(async () => {
  await work.remove();
});

it('dsh show FILE --entries lists REF, SEQ, TYPE and a summary per entry, calls marked', async () => {
  const shown = await runDsh(['show', file, '--entries']);
  expect(shown.code, shown.stderr).toBe(0);
  const [head = '', ...rows] = shown.stdout.trimEnd().split('\n');
  expect(head).toMatch(/^REF +SEQ +TYPE +SUMMARY$/);
  expect(rows.some((row) => /^[0-9a-f-]{36} +\d+ +assistant +\[calls \w+#toolu_/.test(row))).toBe(true);
  expect(rows.some((row) => /^[0-9a-f-]{36} +\d+ +user +user: /.test(row))).toBe(true);
  expect(shown.stderr).toContain(`dsh fork '${file}' --at REF`);
});

it('dsh show FILE --entries --json: each seq is the cut dsh fork FILE --at REF reports, and --at seq:N cuts there', async () => {
  const listed = JSON.parse((await runDsh(['show', file, '--entries', '--json'])).stdout) as Listed;
  expect(listed).toMatchObject({ file, format: 'claude-code' });
  const call = listed.entries.find((entry) => entry.calls.length > 0);
  const prompt = listed.entries.find((entry) => entry.type === 'user' && entry.summary.startsWith('user: '));
  for (const entry of [call, prompt]) {
    expect(entry?.ref).toBeDefined();
    const byRef = JSON.parse((await runDsh(['fork', file, '--at', entry?.ref ?? '', '--json'])).stdout) as { cut: number };
    const bySeq = JSON.parse((await runDsh(['fork', file, '--at', `seq:${String(entry?.seq)}`, '--json'])).stdout) as { cut: number };
    expect([byRef.cut, bySeq.cut]).toEqual([entry?.seq, entry?.seq]);
  }
});

it("INVALID_CUT's hint points at dsh show FILE --entries", async () => {
  const refused = await runDsh(['fork', file, '--at', 'no-such-entry']);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('INVALID_CUT');
  expect(refused.stderr).toContain('hint: list the entries with their REF and seq: `dsh show FILE --entries`');
});
