// Issue 22: inputs that once had no bound. A FIFO hung `dsh import` forever and /dev/zero was read
// for 650 MB; a 10 MB paste kept interactive mode busy for minutes, one prompt per pasted line. Each
// trial here must end with the expected refusal (or the one prompt) well inside a watchdog far above
// its normal run time; one that does not counts `unbounded`, one that ends otherwise `escapes`.
import { execFileSync, spawn } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { materializeLogFile } from 'dsh-host';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DSH_BIN, faultTrials, makeTempDir, printSkip, reportFaults, runDsh, type TempDir, waitFor } from '@dsh/test-utils';
import { HAS_TMUX, openPane } from './tmux-pane.js';

const WATCHDOG_MS = 120_000;
let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir('dsh-unbounded-');
});
afterAll(async () => {
  await dir.remove();
});

const COMMANDS = [['validate'], ['migrate'], ['migrate', '--write'], ['import']];

describe('inputs that are not session files', () => {
  it('FIFOs (with and without a writer) and devices are refused NOT_A_FILE, never read', { timeout: 1_800_000 }, async () => {
    const trials = faultTrials(8, 60);
    let refused = 0;
    let unbounded = 0;
    let escapes = 0;
    for (let index = 0; index < trials; index++) {
      const kind = ['fifo', 'fifo-with-writer', '/dev/zero', '/dev/urandom'][index % 4] as string;
      const command = COMMANDS[(index + Math.floor(index / 4)) % COMMANDS.length] as string[];
      let path = kind;
      let writer: ReturnType<typeof spawn> | undefined;
      if (kind.startsWith('fifo')) {
        path = join(dir.path, `pipe-${String(index)}.jsonl`);
        execFileSync('mkfifo', [path]);
        // A writer that would feed the pipe forever if dsh ever read it.
        if (kind === 'fifo-with-writer') writer = spawn('sh', ['-c', `yes '{}' > '${path}'`], { stdio: 'ignore' });
      }
      const args = [
        ...command.slice(0, 1),
        path,
        ...command.slice(1),
        ...(command[0] === 'import' ? ['--data', join(dir.path, 'data')] : []),
      ];
      try {
        const result = await runDsh(args, { timeoutMs: WATCHDOG_MS });
        if (result.code === 1 && result.stderr.includes('dsh: NOT_A_FILE: ')) refused += 1;
        else escapes += 1;
      } catch {
        unbounded += 1;
      } finally {
        writer?.kill('SIGKILL');
        if (kind.startsWith('fifo')) await rm(path, { force: true });
      }
    }
    reportFaults('unbounded-input-files', { trials, acknowledged: refused, escapes, unbounded });
    expect({ refused, escapes, unbounded }).toEqual({ refused: trials, escapes: 0, unbounded: 0 });
  });
});

describe('a huge paste in interactive mode', () => {
  it('becomes one prompt holding exactly the pasted text', { timeout: 1_800_000 }, async () => {
    if (!HAS_TMUX) {
      printSkip('unbounded-paste', 'tmux is not installed');
      return;
    }
    const trials = faultTrials(1, 5);
    let exact = 0;
    let unbounded = 0;
    let escapes = 0;
    for (let index = 0; index < trials; index++) {
      const text = Array.from({ length: 100_000 + index * 7_001 }, (_, line) => `${String(line)} ${'pasted '.repeat(13)}`).join('\n');
      const file = join(dir.path, `paste-${String(index)}.txt`);
      await writeFile(file, text);
      const data = join(dir.path, `sessions-${String(index)}`);
      const pane = openPane(`sh -c 'exec ${process.execPath} ${DSH_BIN} --data ${data}'`, { cwd: dir.path, env: { NO_COLOR: '1' } });
      try {
        await waitFor('the prompt', () => pane.screen().includes('Type a message'), 60_000);
        const id = /session (\S+)/.exec(pane.screen())?.[1] ?? '';
        pane.paste(file);
        await waitFor('the paste placeholder', () => pane.screen().includes('[paste #1: '), WATCHDOG_MS);
        pane.press('Enter');
        await waitFor('turn 1 to end', () => /turn 1 (completed|error)/.test(pane.screen()), WATCHDOG_MS);
        // Read as stored: a log past 1 MiB is a manifest naming sealed segments (format V7).
        const log = join(data, `${id}.jsonl`);
        const events = (await materializeLogFile(log, await readFile(log)))
          .toString('utf8')
          .trim()
          .split('\n')
          .slice(1)
          .map((line) => JSON.parse(line) as { type: string; data: { message?: { content: { text?: string }[] } } });
        const users = events.filter((event) => event.type === 'user/message');
        if (users.length === 1 && users[0]?.data.message?.content.map((block) => block.text).join('') === text) exact += 1;
        else escapes += 1;
      } catch {
        unbounded += 1;
      } finally {
        pane.close();
      }
    }
    reportFaults('unbounded-paste', { trials, acknowledged: exact, escapes, unbounded });
    expect({ exact, escapes, unbounded }).toEqual({ exact: trials, escapes: 0, unbounded: 0 });
  });
});

// Issue 36 item 8: print mode read stdin without a bound (600 MB → INTERNAL, 300 MB → 2.5 GB RSS and a
// prompt stored twice). A stdin that never ends (`yes`), alone or with a prompt argument, must end
// PROMPT_TOO_LARGE at --max-bytes with nothing stored; a run that outlives the watchdog counts unbounded.
describe('an endless stdin in print mode', () => {
  it('is refused PROMPT_TOO_LARGE at the bound, nothing stored', { timeout: 1_800_000 }, async () => {
    const trials = faultTrials(4, 40);
    let refused = 0;
    let unbounded = 0;
    let escapes = 0;
    let halfWritten = 0;
    for (let index = 0; index < trials; index++) {
      const data = join(dir.path, `print-${String(index)}`);
      const bound = 1024 * 1024 * (1 + (index % 4));
      const prompt = index % 2 === 0 ? '' : ` 'and then?'`;
      const format = index % 4 < 2 ? '' : ' --output-format json';
      const shell = `yes 'endless stdin' | exec '${process.execPath}' '${DSH_BIN}' -p --max-bytes ${String(bound)} --data '${data}'${format}${prompt}`;
      const child = spawn('sh', ['-c', shell], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      let watchdog: NodeJS.Timeout | undefined;
      const code = await Promise.race([
        new Promise<number | null>((resolve) => child.once('close', resolve)),
        new Promise<'unbounded'>((resolve) => {
          watchdog = setTimeout(() => {
            resolve('unbounded');
          }, WATCHDOG_MS);
        }),
      ]);
      clearTimeout(watchdog);
      if (code === 'unbounded') {
        child.kill('SIGKILL');
        unbounded += 1;
      } else if (code === 1 && output.includes('PROMPT_TOO_LARGE')) refused += 1;
      else escapes += 1;
      const stored = await readdir(data).then(
        (names) => names.filter((name) => name.endsWith('.jsonl')),
        () => [],
      );
      if (stored.length > 0) halfWritten += 1;
    }
    reportFaults('unbounded-print-stdin', { trials, acknowledged: refused, escapes, unbounded, halfWritten });
    expect({ refused, escapes, unbounded, halfWritten }).toEqual({ refused: trials, escapes: 0, unbounded: 0, halfWritten: 0 });
  });
});
