// `dsh repair FILE` while a tool is still writing FILE (SPEC §27 "dsh repair loses no line the tool
// writes"). A child process appends numbered lines to a Codex rollout that ends mid-call — one
// appending by path (open, write, close per line), one holding its descriptor as Codex's recorder
// does — while `dsh repair` runs. Every line the writer wrote must be in FILE afterwards, once, and
// whatever repair did (repaired, or refused SOURCE_CHANGED / FILE_IN_USE), FILE.bak is a prefix of
// FILE and no temp file is left. Figures: lines lost, repairs that wrote and repairs that refused.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexTranscript, faultTrials, makeTempDir, reportFaults, runDsh } from '@dsh/test-utils';

/**
 * The writer: five lines, then — when `react` is 1 — one line each time a temp file appears in
 * FILE's folder (the worst moment: while repair writes), and two more lines once its stdin closes
 * (after repair). It prints how many it wrote.
 */
const WRITER = `
const fs = require('node:fs');
const path = require('node:path');
const [file, how, react] = process.argv.slice(1);
let n = 0;
const fd = how === 'fd' ? fs.openSync(file, 'a') : undefined;
const line = () => JSON.stringify({ timestamp: new Date().toISOString(), type: 'event_msg', payload: { type: 'token_count', probe: n++ } }) + '\\n';
const write = () => (fd === undefined ? fs.appendFileSync(file, line()) : fs.writeSync(fd, line()));
for (let i = 0; i < 5; i++) write();
const watcher = fs.watch(path.dirname(file), (event, name) => {
  if (react === '1' && String(name).endsWith('.tmp')) write();
});
process.stdin.on('end', () => {
  watcher.close();
  write();
  write();
  process.stdout.write('wrote ' + n + '\\n');
  if (fd !== undefined) fs.closeSync(fd);
}).resume();
process.stdout.write('started\\n');
`;

function startWriter(
  file: string,
  how: 'path' | 'fd',
  react: boolean,
): { child: ChildProcess; started: Promise<void>; written: Promise<number> } {
  const child = spawn(process.execPath, ['-e', WRITER, file, how, react ? '1' : '0'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const written = new Promise<number>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('started')) markStarted();
    });
    child.on('error', reject);
    child.on('close', () => {
      resolve(Number(/wrote (\d+)/.exec(out)?.[1] ?? -1));
    });
  });
  return { child, started, written };
}

describe('dsh repair FILE while a tool writes FILE', () => {
  for (const how of ['path', 'fd'] as const) {
    it(`loses no line of a writer appending by ${how === 'path' ? 'path' : 'a held descriptor'}`, { timeout: 300_000 }, async () => {
      const trials = faultTrials(6, 24);
      let lost = 0;
      let repaired = 0;
      let refused = 0;
      let halfWritten = 0;
      let escapes = 0;
      for (let trial = 0; trial < trials; trial++) {
        await using dir = await makeTempDir('dsh-repair-live-');
        const { text } = codexTranscript({ turns: 20 + 10 * trial, endMidCall: true });
        const file = join(dir.path, 'rollout-2026-11-21T08-00-00-019e2000-1111-7222-8333-444455556666.jsonl');
        await writeFile(file, text);
        const writer = startWriter(file, how, trial % 2 === 0);
        await writer.started;
        const result = await runDsh(['repair', file]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        writer.child.stdin?.end();
        const written = await writer.written;
        const after = await readFile(file, 'utf8');
        const probes = after.split('\n').flatMap((line) => {
          const probe = /"probe":(\d+)/.exec(line)?.[1];
          return probe === undefined ? [] : [Number(probe)];
        });
        const seen = new Set(probes);
        for (let n = 0; n < written; n++) if (!seen.has(n)) lost++;
        if (probes.length !== seen.size || written < 7) escapes++;
        if (!after.startsWith(text)) halfWritten++;
        if (result.code === 0) {
          repaired++;
          expect(result.stderr).toContain('call(s) closed');
          expect(after).toContain('call_FxOpen0000000000000001');
          const backup = await readFile(`${file}.bak`, 'utf8');
          if (!after.startsWith(backup)) halfWritten++;
        } else {
          refused++;
          expect(result.stderr).toMatch(/SOURCE_CHANGED|FILE_IN_USE/);
        }
        const temps = (await readdir(dir.path)).filter((name) => name.endsWith('.tmp'));
        if (temps.length > 0) halfWritten++;
      }
      reportFaults(`repair-live-writer-${how}`, { trials, lost, halfWritten, escapes, repaired, refused });
      expect({ lost, halfWritten, escapes }).toStrictEqual({ lost: 0, halfWritten: 0, escapes: 0 });
    });
  }
});
