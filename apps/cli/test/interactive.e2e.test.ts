/**
 * Interactive mode as a person uses it: the real bin in a tmux pane, keys sent with `send-keys`,
 * the screen read with `capture-pane`.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { materializeLogFile } from 'dsh-host';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  chatCompletionChunk,
  DSH_BIN,
  isRunning,
  makeTempDir,
  type ModelServer,
  runDsh,
  startModelServer,
  type TempDir,
  waitFor,
} from '@dsh/test-utils';
import { HAS_TMUX, openPane, type Pane } from './tmux-pane.js';

let data: TempDir;
let pane: Pane | undefined;
let server: ModelServer | undefined;
// Releases a model stream the test held open (so the server can close).
let release: () => void = () => undefined;
beforeEach(async () => {
  data = await makeTempDir('dsh-cli-interactive-');
});
afterEach(async () => {
  pane?.close();
  pane = undefined;
  release();
  await server?.close();
  server = undefined;
  await data.remove();
});

/** Starts `dsh ARGS` in a fresh pane; dsh's pid is printed first (`sh` prints its own, then execs node in its place). */
function start(args: string[], env: Record<string, string> = {}): Pane {
  pane?.close();
  pane = openPane(`sh -c 'echo "[dsh pid $$]"; exec ${process.execPath} ${DSH_BIN} ${args.join(' ')}'`, {
    cwd: data.path,
    env: { NO_COLOR: '1', ...env },
  });
  return pane;
}

function screen(escapes = false): string {
  if (pane === undefined) throw new Error('no pane started');
  return pane.screen(escapes);
}

function type(keys: string, until: RegExp): Promise<void> {
  if (pane === undefined) throw new Error('no pane started');
  return pane.type(keys, until);
}

function press(key: string): void {
  pane?.press(key);
}

/** An OpenAI-compatible server streaming `pieces` of text; a promise among them holds the stream there. */
async function slowModel(pieces: (string | Promise<unknown>)[]): Promise<Record<string, string>> {
  server = await startModelServer(() => ({
    chunks: [
      chatCompletionChunk({ role: 'assistant', content: '' }),
      ...pieces.map((piece) => (typeof piece === 'string' ? chatCompletionChunk({ content: piece }) : piece)),
      chatCompletionChunk({}, 'stop'),
      'data: [DONE]\n\n',
    ],
  }));
  return { OPENAI_BASE_URL: `${server.origin}/v1`, OPENAI_API_KEY: 'sk-test' };
}

/** A promise the test settles by hand, and `release` set to settle it. */
function gate(): Promise<void> {
  return new Promise<void>((resolve) => {
    release = resolve;
  });
}

function sessionOnScreen(): string {
  const id = /session (\S+)/.exec(screen())?.[1];
  if (id === undefined) throw new Error(`no session id on screen:\n${screen()}`);
  return id;
}

function dshPid(): number {
  return Number(/\[dsh pid (\d+)\]/.exec(screen())?.[1]);
}

type LoggedEvent = {
  type: string;
  data: { reason?: { kind: string }; message?: { content: { type: string; text?: string }[] }; cwd?: string; tools?: string[] };
};

/** The session's events as stored: a manifest file read with its sealed segments (format V7), as `dsh export` reads it. */
async function eventsOf(id: string): Promise<LoggedEvent[]> {
  const file = join(data.path, 'sessions', `${id}.jsonl`);
  const lines = (await materializeLogFile(file, await readFile(file))).toString('utf8').trim().split('\n').slice(1);
  return lines.map((line) => JSON.parse(line) as LoggedEvent);
}

/** About `bytes` of text in numbered lines of 100 bytes, with a line break at the end and some non-ASCII. */
function pasteText(bytes: number): string {
  const lines: string[] = [];
  for (let index = 0; lines.length * 100 < bytes; index++) lines.push(`line ${String(index)} é `.padEnd(98, 'x') + '\n');
  return lines.join('');
}

describe.skipIf(!HAS_TMUX)('dsh interactive mode in a terminal', () => {
  it(
    'talks to the keyless model, /branch, /fork 7, /tree, quits with Ctrl-C twice, then --resume the branch',
    { timeout: 300_000 },
    async () => {
      start(['--data', 'sessions']);
      await waitFor(`the prompt\n${screen()}`, () => screen().includes('Type a message'), 60_000);
      await type('list files', /turn 1 completed/);
      expect(screen()).toMatch(/\[\d+\] ⚙ list_files \(read-only\)/);
      await type('/branch side', /now in branch \S+ {2}"side"/);
      await type('/fork 7 exact', /forked \S+ at seq 7 .*\n.*now in fork \S+ {2}"exact"/);
      await type('/tree', /└─ exact .*@7.*\*/);
      expect(screen()).toMatch(/└─ side .*@\d+/);
      press('C-c');
      await waitFor('the first Ctrl-C notice', () => screen().includes('Ctrl-C again'));
      press('C-c');
      await waitFor(`dsh to exit\n${screen()}`, () => screen().includes('[exited 0]'));
      expect(screen(true)).not.toContain('\u001B[2m');
      // The goodbye names the command that resumes here, with the --data this run was given.
      expect(screen()).toMatch(/bye — resume with: dsh --resume \S+ --data \S+/);
      expect(screen()).toContain(`--data ${join(data.path, 'sessions')}`);

      start(['--resume', 'side', '--data', 'sessions'], { NO_COLOR: '' });
      await waitFor(`the resumed branch\n${screen()}`, () => /session \S+ {2}"side"/.test(screen()), 60_000);
      await type('hello', /turn 2 completed/);
      // On a terminal without NO_COLOR, seqs are dimmed.
      expect(screen(true)).toContain('\u001B[2m');
      await type('/events', /user\/message +hello/);
      await type('/exit', /\[exited 0\]/);
    },
  );

  it('prints assistant text as it streams, before the turn ends, then closes it with its seq', { timeout: 180_000 }, async () => {
    const env = await slowModel(['Once upon', ' a time', gate(), ', the end.']);
    start(['--data', 'sessions', '--model', 'openai:slow'], env);
    await waitFor(`the prompt\n${screen()}`, () => screen().includes('Type a message'), 60_000);
    await type('tell me a story', /Once upon a time/);
    // The model is holding the rest back: the partial text is on screen and the turn has not ended.
    expect(screen()).not.toMatch(/turn 1 completed|the end/);
    release();
    await waitFor(`the end of turn 1\n${screen()}`, () => /turn 1 completed/.test(screen()), 60_000);
    expect(screen()).toMatch(/^Once upon a time, the end\. \[\d+\]$/m);
    await type('/exit', /\[exited 0\]/);
  });

  it(
    'Ctrl-C during a streaming turn records it cancelled and returns the prompt; a second Ctrl-C exits and releases the lease',
    { timeout: 180_000 },
    async () => {
      const env = await slowModel(['Thinking about it', gate()]);
      start(['--data', 'sessions', '--model', 'openai:slow'], env);
      await waitFor(`the prompt\n${screen()}`, () => screen().includes('Type a message'), 60_000);
      const id = sessionOnScreen();
      await type('take your time', /Thinking about it/);
      press('C-c');
      await waitFor(`turn 1 cancelled\n${screen()}`, () => /turn 1 cancelled/.test(screen()), 60_000);
      expect(screen()).toContain('Ctrl-C again exits');
      // The prompt is back, and the log says the turn was cancelled (not an error, not left open).
      await waitFor(`the prompt after the cancel\n${screen()}`, () => screen().trimEnd().endsWith('>'));
      const ends = (await eventsOf(id)).filter((event) => event.type === 'turn/end');
      expect(ends.map((event) => event.data.reason?.kind)).toEqual(['cancelled']);
      await server?.aborted;

      const pid = dshPid();
      expect(isRunning(pid)).toBe(true);
      press('C-c');
      await waitFor(`dsh to exit\n${screen()}`, () => screen().includes('[exited 0]'));
      expect(isRunning(pid)).toBe(false);
      // Its lease was released on the way out (not merely abandoned by a dead process).
      const leases = join(data.path, 'sessions', '.leases', id);
      const newest = Math.max(...(await readdir(leases)).filter((name) => /^\d+$/.test(name)).map(Number));
      expect(JSON.parse(await readFile(join(leases, String(newest)), 'utf8'))).toMatchObject({ released: true });
      // The session recorded openai:slow; --model keyless switches it, since this run has no endpoint.
      const resumed = await runDsh(['-p', 'again', '--resume', id, '--model', 'keyless', '--data', join(data.path, 'sessions')]);
      expect(resumed.code).toBe(0);
    },
  );

  it('takes a 10 MB paste of many lines as one prompt whose user message is exactly the pasted text', { timeout: 900_000 }, async () => {
    const text = pasteText(10 * 1024 * 1024);
    const file = join(data.path, 'paste.txt');
    await writeFile(file, text);
    start(['--data', 'sessions']);
    await waitFor(`the prompt\n${screen()}`, () => screen().includes('Type a message'), 60_000);
    const id = sessionOnScreen();
    pane?.paste(file);
    // The paste arrives whole, as one placeholder on the prompt line (no prompt per pasted line).
    const lines = text.split('\n').length - 1;
    const placeholder = `[paste #1: ${text.length.toLocaleString('en-US')} chars, ${lines.toLocaleString('en-US')} lines]`;
    await waitFor(`the paste placeholder\n${screen().slice(-2000)}`, () => screen().includes(placeholder), 600_000);
    press('Enter');
    await waitFor(`turn 1 to end\n${screen().slice(-2000)}`, () => /turn 1 completed/.test(screen()), 300_000);
    const users = (await eventsOf(id)).filter((event) => event.type === 'user/message');
    expect(users).toHaveLength(1);
    expect(users[0]?.data.message?.content.map((block) => block.text).join('')).toBe(text);
    await type('/exit', /\[exited 0\]/);
  });

  it(
    'a line typed while a turn streams is held back (never inside the answer); /branch acts at once and the line runs in the branch',
    { timeout: 180_000 },
    async () => {
      const env = await slowModel(['Thinking about it', gate(), ' and done.']);
      start(['--data', 'sessions', '--model', 'openai:slow'], env);
      await waitFor(`the prompt\n${screen()}`, () => screen().includes('Type a message'), 60_000);
      await type('first question', /Thinking about it/);
      await type('second question', /Thinking about it/);
      // /branch is typed after the held line and acts while the model still holds its answer back.
      await type('/branch', /now in branch/);
      const lines = screen().split('\n');
      const answer = lines.findIndex((line) => line.startsWith('Thinking about it'));
      expect(lines[answer]).toBe('Thinking about it');
      await waitFor(`the held line to run\n${screen()}`, () => /^> second question {2}\(typed during the turn\)$/m.test(screen()), 60_000);
      const after = screen().split('\n');
      expect(after.findIndex((line) => line.startsWith('now in branch'))).toBeLessThan(
        after.findIndex((line) => line.includes('(typed during the turn)')),
      );
      expect(after.filter((line) => line.includes('second question'))).toHaveLength(1);
      release();
      await waitFor(`the branch's turn to end\n${screen()}`, () => /turn \d+ completed/.test(screen()), 60_000);
      await type('/exit', /\[exited 0\]/);
    },
  );

  it(
    '--no-checkpoints is stored in interactive mode: the session it creates and the children of /branch and /fork record checkpoints: false, so a later dsh -p resume takes none',
    { timeout: 240_000 },
    async () => {
      const work = join(data.path, 'work');
      await mkdir(work);
      await writeFile(join(work, 'readme.md'), 'hello\n');
      start(['--data', 'sessions', '--cwd', 'work', '--no-checkpoints']);
      await waitFor(`the prompt\n${screen()}`, () => screen().includes('Type a message'), 60_000);
      await type('list files', /turn 1 completed/);
      const root = sessionOnScreen();
      await type('/branch offb', /now in branch \S+ {2}"offb"/);
      await type('/fork 3 offf', /now in fork \S+ {2}"offf"/);
      await type('/exit', /\[exited 0\]/);

      const sessions = join(data.path, 'sessions');
      const listed = JSON.parse((await runDsh(['sessions', '--json', '--data', sessions])).stdout) as { id: string; title?: string }[];
      const ids = [root, ...['offb', 'offf'].map((title) => listed.find((item) => item.title === title)?.id ?? `no ${title}`)];
      for (const id of ids) {
        const events = await eventsOf(id);
        expect(events.findLast((event) => event.type === 'session/config')?.data, id).toMatchObject({ checkpoints: false });
        expect(events.map((event) => event.type)).not.toContain('workspace/checkpoint');
      }
      // A resume by another path, without the flag, takes none either: the choice is the session's.
      const resumed = await runDsh(['-p', 'again', '--resume', ids[2] ?? '', '--output-format', 'events', '--data', sessions], {
        cwd: data.path,
      });
      expect(resumed.code, resumed.stderr).toBe(0);
      const types = resumed.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { type: string }).type);
      expect(types).toContain('turn/start');
      expect(types).not.toContain('workspace/checkpoint');
    },
  );

  it('/branch and /fork take --cwd DIR, --tools a,b and --worktree, as dsh fork does', { timeout: 240_000 }, async () => {
    const work = join(data.path, 'work');
    await mkdir(work);
    await mkdir(join(data.path, 'other'));
    await writeFile(join(work, 'readme.md'), 'hello\n');
    for (const args of [
      ['init', '-q'],
      ['add', '.'],
      ['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'start'],
    ]) {
      expect(spawnSync('git', ['-C', work, ...args]).status).toBe(0);
    }
    start(['--data', 'sessions', '--cwd', 'work']);
    await waitFor(`the prompt\n${screen()}`, () => screen().includes('Type a message'), 60_000);
    await type('list files', /turn 1 completed/);
    await type('/branch wt --worktree', /now in branch \S+ {2}"wt"/);
    await type('/fork 3 narrow --cwd other --tools read_file', /now in fork \S+ {2}"narrow"/);
    await type('/branch odd --bogus', /does not take --bogus/);
    await type('/exit', /\[exited 0\]/);

    const listed = JSON.parse((await runDsh(['sessions', '--json', '--data', join(data.path, 'sessions')])).stdout) as {
      id: string;
      title?: string;
      cwd?: string;
    }[];
    const byTitle = new Map(listed.map((item) => [item.title, item]));
    const wt = join(data.path, 'sessions', 'worktrees', 'wt');
    expect(byTitle.get('wt')?.cwd).toBe(wt);
    expect(spawnSync('git', ['-C', wt, 'rev-parse', '--abbrev-ref', 'HEAD'], { encoding: 'utf8' }).stdout.trim()).toBe('dsh/wt');
    expect(byTitle.get('narrow')?.cwd).toBe(join(data.path, 'other'));
    const configs = (await eventsOf(byTitle.get('narrow')?.id ?? '')).filter((event) => event.type === 'session/config');
    expect(configs.at(-1)?.data).toMatchObject({ cwd: join(data.path, 'other'), tools: ['read_file'] });
    expect(byTitle.has('odd')).toBe(false);
  });

  it(
    '/resume without an argument lists recent sessions with their first prompt and updated time; a number picks one',
    { timeout: 180_000 },
    async () => {
      const first = await runDsh(['-p', 'hello from the past', '--name', 'old-one', '--data', join(data.path, 'sessions')]);
      expect(first.code).toBe(0);
      start(['--data', 'sessions']);
      await waitFor(`the prompt\n${screen()}`, () => screen().includes('Type a message'), 60_000);
      await type('/resume', /type a number/);
      const row =
        screen()
          .split('\n')
          .find((line) => line.includes('old-one')) ?? '';
      expect(row).toMatch(/^\s*\d+\) \d+ min ago\s+old-one\s+"hello from the past"/);
      const number = /^\s*(\d+)\)/.exec(row)?.[1] ?? '';
      await type(number, /resumed \S+ {2}"old-one"/);
      await type('/exit', /\[exited 0\]/);
    },
  );

  it(
    '/branch releases the session it leaves: another process resumes the original while interactive mode stays open (SPEC §25)',
    { timeout: 180_000 },
    async () => {
      const sessions = join(data.path, 'sessions');
      const first = await runDsh(['-p', 'hello from the past', '--name', 'left-one', '--data', sessions]);
      expect(first.code).toBe(0);
      start(['--resume', 'left-one', '--data', 'sessions']);
      await waitFor(`the prompt\n${screen()}`, () => screen().includes('Type a message'), 60_000);
      await type('/branch moved', /now in branch \S+ {2}"moved"/);
      const elsewhere = await runDsh(['-p', 'from another terminal', '--resume', 'left-one', '--data', sessions]);
      expect(elsewhere.code, elsewhere.stderr).toBe(0);
      await type('/exit', /\[exited 0\]/);
    },
  );

  it(
    '/resume releases the session it leaves: another process resumes the original while interactive mode stays open (SPEC §25)',
    { timeout: 180_000 },
    async () => {
      const sessions = join(data.path, 'sessions');
      for (const name of ['left-two', 'next-one']) {
        const made = await runDsh(['-p', `hello from ${name}`, '--name', name, '--data', sessions]);
        expect(made.code, made.stderr).toBe(0);
      }
      start(['--resume', 'left-two', '--data', 'sessions']);
      await waitFor(`the prompt\n${screen()}`, () => screen().includes('Type a message'), 60_000);
      await type('/resume next-one', /resumed \S+ {2}"next-one"/);
      const elsewhere = await runDsh(['-p', 'from another terminal', '--resume', 'left-two', '--data', sessions]);
      expect(elsewhere.code, elsewhere.stderr).toBe(0);
      await type('/exit', /\[exited 0\]/);
    },
  );

  it(
    'without --model a new session runs on the default model of the key set (OPENAI_API_KEY → openai:gpt-4.1), no keyless note (SPEC §25)',
    { timeout: 180_000 },
    async () => {
      const env = await slowModel(['from the key model']);
      start(['--data', 'sessions'], env);
      await waitFor(`the prompt\n${screen()}`, () => screen().includes('Type a message'), 60_000);
      const id = sessionOnScreen();
      await type('hello', /turn 1 completed/);
      expect(screen()).toContain('from the key model');
      expect(screen()).not.toContain('keyless');
      expect(server?.requests.map((request) => (request.body as { model?: string }).model)).toEqual(['gpt-4.1']);
      const configs = (await eventsOf(id)).filter((event) => event.type === 'session/config');
      expect(configs.at(-1)?.data).toMatchObject({ model: 'openai:gpt-4.1' });
      await type('/exit', /\[exited 0\]/);
    },
  );

  it('without --model or a key a new session runs keyless and says so once (SPEC §25)', { timeout: 180_000 }, async () => {
    start(['--data', 'sessions'], { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' });
    await waitFor(`the prompt\n${screen()}`, () => screen().includes('Type a message'), 60_000);
    await type('hello', /turn 1 completed/);
    expect(screen().split('answering with the keyless offline model')).toHaveLength(2);
    await type('/exit', /\[exited 0\]/);
  });

  it(
    'dsh --resume without a value opens the picker; an answer that is not a number cancels it and is never sent to the model (SPEC §25)',
    { timeout: 180_000 },
    async () => {
      const first = await runDsh(['-p', 'hello from the past', '--name', 'old-one', '--data', join(data.path, 'sessions')]);
      expect(first.code).toBe(0);
      start(['--resume', '--data', 'sessions']);
      await waitFor(`the picker\n${screen()}`, () => screen().includes('type a number'), 60_000);
      expect(screen()).toMatch(/old-one\s+"hello from the past"/);
      await type('list files', /\/resume cancelled: that was not a number, so nothing was sent to the model/);
      expect(screen()).not.toContain('I am the keyless offline model');
      await type('/exit', /\[exited 0\]/);
    },
  );
});
