/**
 * SPEC §20 — fork peers: one baseline, several alternatives at one cut, run at once, side by side.
 * Through the real `dsh` bin (and `host.fetch` for the HTTP route); model servers on 127.0.0.1.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedModel } from 'dsh-agent';
import { createHost } from 'dsh-host';
import { createMemoryStore, openSessionStore } from 'dsh-session';
import {
  makeTempDir,
  type ModelServer,
  type ModelServerRequest,
  outputMatching,
  printJson,
  runDsh,
  spawnDsh,
  spawnDshOnTerminal,
  startModelServer,
  streamedReply,
  type TempDir,
} from '@dsh/test-utils';

let dir: TempDir;
let data: string;
let work: string;
const servers: ModelServer[] = [];
beforeEach(async () => {
  dir = await makeTempDir('dsh-acc-s20-');
  data = join(dir.path, 'data');
  work = join(dir.path, 'work');
  await mkdir(work);
  await writeFile(join(work, 'notes.md'), 'remember the milk\n');
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  await dir.remove();
});

type Peer = {
  name: string;
  session_id: string;
  cwd: string | null;
  result: string;
  is_error: boolean;
  subtype: string;
  num_turns: number;
  usage: object;
  files_changed: string[];
};
type Peers = { baseline: { session_id: string; cut: number }; peers: Peer[] };

async function peers(args: string[], code = 0, env: Record<string, string> = {}): Promise<Peers> {
  const run = await runDsh(['peers', ...args, '--output-format', 'json', '--data', data], { cwd: work, env });
  expect(run.code, run.stderr).toBe(code);
  return JSON.parse(run.stdout) as Peers;
}

async function header(id: string) {
  const store = await openSessionStore({ dir: data });
  try {
    return (await store.inspect(id)).header;
  } finally {
    await store.close();
  }
}

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-C', cwd, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

const lastUserText = (request: ModelServerRequest) =>
  JSON.stringify(
    (request.body as { messages: { role: string; content: unknown }[] }).messages.findLast((message) => message.role === 'user')?.content,
  );

const baseline = () => printJson(['-p', 'list files', '--name', 'base', '--data', data], { cwd: work });

describe('§20 dsh peers', () => {
  it(
    '§20 forks the baseline once per prompt, every peer at the same cut of the baseline, runs them concurrently, prints json in prompt order named <baseline>-N',
    { timeout: 180_000 },
    async () => {
      const base = await baseline();
      let secondArrived: () => void = () => undefined;
      const second = new Promise<void>((resolve) => (secondArrived = resolve));
      const endpoint = await startModelServer((request, index) => {
        if (index === 1) secondArrived();
        const answer = streamedReply('chat', { text: `answer to ${lastUserText(request)}` });
        // The first answer is held until the second request arrived: only concurrent peers finish.
        return index === 0 ? { chunks: [second, ...answer.chunks] } : answer;
      });
      servers.push(endpoint);
      const output = await peers(['base', '--prompt', 'alpha', '--prompt', 'beta', '--model', 'openai:m', '--tools', ''], 0, {
        OPENAI_BASE_URL: `${endpoint.origin}/v1`,
        OPENAI_API_KEY: 'sk-test',
      });
      expect(output.baseline.session_id).toBe(base.session_id);
      expect(output.peers.map((peer) => peer.name)).toEqual(['base-1', 'base-2']);
      expect(output.peers.map((peer) => peer.result)).toEqual([expect.stringContaining('alpha'), expect.stringContaining('beta')]);
      for (const peer of output.peers) {
        expect(Object.keys(peer)).toEqual(
          expect.arrayContaining(['name', 'session_id', 'cwd', 'result', 'is_error', 'subtype', 'num_turns', 'usage', 'files_changed']),
        );
        expect(peer).toMatchObject({ is_error: false, subtype: 'success' });
        // Siblings: both children of the baseline at one cut, never one peer from another.
        expect(await header(peer.session_id)).toMatchObject({ parentSession: base.session_id, forkCut: output.baseline.cut });
      }
      // The omitted cut: after the baseline's latest closed turn, here its last event.
      const store = await openSessionStore({ dir: data });
      const events = (await store.inspect(String(base.session_id))).events;
      await store.close();
      expect(output.baseline.cut).toBe(events.findLastIndex((event) => event.type === 'turn/end'));
    },
  );

  it(
    '§20 --at SEQ forks every peer exactly there; text prints a block per peer: name, id, cwd, answer, turns, tool calls, files changed, error',
    { timeout: 180_000 },
    async () => {
      await baseline();
      const run = await runDsh(['peers', 'base', '--at', '2', '--prompt', 'read notes.md', '--prompt', 'write x.txt: hi', '--data', data], {
        cwd: work,
      });
      expect(run.code, run.stderr).toBe(0);
      const blocks = run.stdout.split(/^── /m).slice(1);
      expect(blocks).toHaveLength(2);
      for (const [index, block] of blocks.entries()) {
        expect(block).toMatch(new RegExp(`^base-${String(index + 1)}  \\S+`));
        for (const label of ['cwd:', 'turns:', 'tool calls:', 'files changed:', 'error:', 'answer:']) expect(block).toContain(label);
        const id = /^\S+ {2}(\S+)/.exec(block)?.[1] ?? '';
        expect((await header(id)).forkCut).toBe(2);
      }
      expect(blocks[0]).toContain('remember the milk');
      expect(blocks[1]).toMatch(/files changed: x\.txt/);
    },
  );

  it("§20 exit status 1 when a peer's turn fails, every peer still reported", { timeout: 180_000 }, async () => {
    await baseline();
    const endpoint = await startModelServer((request) =>
      lastUserText(request).includes('fail')
        ? { status: 400, json: { error: { message: 'refused', type: 'invalid_request_error' } } }
        : streamedReply('chat', { text: 'fine' }),
    );
    servers.push(endpoint);
    const output = await peers(['base', '--prompt', 'please fail', '--prompt', 'succeed', '--model', 'openai:m', '--tools', ''], 1, {
      OPENAI_BASE_URL: `${endpoint.origin}/v1`,
      OPENAI_API_KEY: 'sk-test',
    });
    expect(output.peers.map((peer) => [peer.name, peer.is_error])).toEqual([
      ['base-1', true],
      ['base-2', false],
    ]);
  });

  it(
    '§20 --worktree: NOT_A_GIT_REPOSITORY outside git; else one worktree per peer on dsh/<name> at HEAD, writes kept apart, files_changed per peer; --cwd once per prompt',
    { timeout: 240_000 },
    async () => {
      await baseline();
      const refused = await runDsh(['peers', 'base', '--prompt', 'x', '--worktree', '--data', data], { cwd: work });
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('NOT_A_GIT_REPOSITORY')]);
      git(work, 'init', '-q');
      git(work, 'add', '.');
      git(work, 'commit', '-qm', 'start');
      const output = await peers([
        'base',
        '--prompt',
        'write a.txt: from A',
        '--prompt',
        'write b.txt: from B',
        '--name',
        'pa',
        '--name',
        'pb',
        '--worktree',
      ]);
      const [a, b] = output.peers as [Peer, Peer];
      expect([a.files_changed, b.files_changed]).toEqual([['a.txt'], ['b.txt']]);
      expect(await readFile(join(a.cwd ?? '', 'a.txt'), 'utf8')).toBe('from A');
      expect(existsSync(join(a.cwd ?? '', 'b.txt')) || existsSync(join(b.cwd ?? '', 'a.txt'))).toBe(false);
      expect(git(work, 'status', '--porcelain', '--untracked-files=all')).toBe('');
      expect(git(a.cwd ?? '', 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('dsh/pa');
      expect(git(b.cwd ?? '', 'rev-parse', 'HEAD')).toBe(git(work, 'rev-parse', 'HEAD'));

      const one = join(dir.path, 'one');
      const two = join(dir.path, 'two');
      await mkdir(one);
      await mkdir(two);
      const placed = await peers(['base', '--prompt', 'write y.txt: 1', '--prompt', 'write y.txt: 2', '--cwd', one, '--cwd', two]);
      expect(placed.peers.map((peer) => peer.cwd)).toEqual([one, two]);
      expect([await readFile(join(one, 'y.txt'), 'utf8'), await readFile(join(two, 'y.txt'), 'utf8')]).toEqual(['1', '2']);
    },
  );

  it(
    '§20 a peer is continued by its own name; running dsh peers again forks new peers, never continues old ones',
    { timeout: 180_000 },
    async () => {
      const base = await baseline();
      const first = await peers(['base', '--prompt', 'list files']);
      const resumed = await printJson(['-p', 'read notes.md', '--resume', 'base-1', '--data', data], { cwd: work });
      expect(resumed.session_id).toBe(first.peers[0]?.session_id);
      expect(resumed.parentSession).toBeUndefined();
      const again = await peers(['base', '--prompt', 'list files']);
      expect(again.peers.map((peer) => peer.name)).toEqual(['base-2']);
      expect(again.peers[0]?.session_id).not.toBe(first.peers[0]?.session_id);
      expect(await header(again.peers[0]?.session_id ?? '')).toMatchObject({ parentSession: base.session_id });
    },
  );
});

describe('§20 forks take --cwd, --tools and --worktree', () => {
  it(
    '§20 dsh fork --cwd/--tools change only those fields; a fork whose cwd a live session uses prints a warning naming it',
    { timeout: 180_000 },
    async () => {
      const base = await baseline();
      const other = join(dir.path, 'other');
      await mkdir(other);
      const forked = await runDsh(['fork', 'base', '--cwd', other, '--tools', 'read_file', '--name', 'narrow', '--data', data], {
        cwd: work,
      });
      expect(forked.code, forked.stderr).toBe(0);
      const store = await openSessionStore({ dir: data });
      const configs = (await store.inspect(forked.stdout.trim())).events.filter((event) => event.type === 'session/config');
      await store.close();
      expect(configs.at(-1)?.data).toMatchObject({ cwd: other, tools: ['read_file'], model: 'keyless' });

      // A live session in another process works in `work`: a fork into `work` is warned about.
      let arrived: () => void = () => undefined;
      const requested = new Promise<void>((resolve) => (arrived = resolve));
      const hanging = await startModelServer(() => {
        arrived();
        return 'hang';
      });
      servers.push(hanging);
      const holder = spawnDsh(['-p', 'hold', '--resume', 'base', '--model', 'openai:hold', '--data', data], {
        cwd: work,
        env: { OPENAI_BASE_URL: `${hanging.origin}/v1`, OPENAI_API_KEY: 'sk-test' },
      });
      const exited = new Promise((resolve) => holder.on('close', resolve));
      try {
        await requested;
        const shared = await runDsh(['fork', 'narrow', '--cwd', work, '--data', data], { cwd: work });
        expect(shared.code, shared.stderr).toBe(0);
        expect(shared.stderr).toMatch(/warning/i);
        expect(shared.stderr).toContain(String(base.session_id));
      } finally {
        holder.kill('SIGKILL');
        await exited;
      }
    },
  );

  it('§20 interactive /branch and /fork take --cwd DIR, --tools a,b and --worktree', { timeout: 180_000 }, async () => {
    git(work, 'init', '-q');
    git(work, 'add', '.');
    git(work, 'commit', '-qm', 'start');
    await baseline();
    const other = join(dir.path, 'other');
    await mkdir(other);
    const terminal = spawnDshOnTerminal(['--resume', 'base', '--data', data], { cwd: dir.path });
    const closed = new Promise((resolve) => terminal.on('close', resolve));
    try {
      await outputMatching(terminal, /Type a message/);
      terminal.stdin?.write('/branch wt --worktree\r');
      await outputMatching(terminal, /now in branch \S+ {2}"wt"/);
      terminal.stdin?.write('/fork 2 narrow --cwd other --tools read_file\r');
      await outputMatching(terminal, /now in fork \S+ {2}"narrow"/);
      terminal.stdin?.write('/exit\r');
      await closed;
    } finally {
      terminal.kill('SIGKILL');
    }
    const listed = JSON.parse((await runDsh(['sessions', '--json', '--data', data])).stdout) as {
      id: string;
      title?: string;
      cwd?: string;
    }[];
    const byTitle = new Map(listed.map((item) => [item.title, item]));
    expect(byTitle.get('wt')?.cwd).toBe(join(data, 'worktrees', 'wt'));
    expect(git(join(data, 'worktrees', 'wt'), 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('dsh/wt');
    expect(byTitle.get('narrow')?.cwd).toBe(other);
  });
});

describe('§20 HTTP', () => {
  it("§20 POST /api/sessions/:id/peers → 201 { baseline, cut, peers: [{ sessionId, title }] }, each prompt started as its peer's first turn", async () => {
    const store = createMemoryStore();
    const host = createHost({
      store,
      model: createScriptedModel(Array.from({ length: 5 }, (_, index) => ({ text: `answer ${String(index)}` }))),
    });
    try {
      const { sessionId } = await host.create({ title: 'base' });
      await host.send(sessionId, 'hello');
      await host.idle(sessionId);
      const response = await host.fetch(
        new Request(`http://dsh.test/api/sessions/${sessionId}/peers`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ peers: [{ prompt: 'try A' }, { prompt: 'try B', title: 'plan-b' }] }),
        }),
      );
      expect(response.status).toBe(201);
      const body = (await response.json()) as { baseline: string; cut: number; peers: { sessionId: string; title: string }[] };
      expect(body).toMatchObject({ baseline: sessionId, peers: [{ title: 'base-1' }, { title: 'plan-b' }] });
      for (const [index, peer] of body.peers.entries()) {
        await host.idle(peer.sessionId);
        const observed = await host.observe(peer.sessionId);
        expect(observed.header).toMatchObject({ parentSession: sessionId, forkCut: body.cut });
        const own = observed.events.slice(observed.header.inheritedEventCount);
        const user = own.find((event) => event.type === 'user/message')?.data as { message: { content: { text: string }[] } } | undefined;
        expect(user?.message.content[0]?.text).toBe(['try A', 'try B'][index]);
        expect(own.some((event) => event.type === 'turn/end')).toBe(true);
      }
    } finally {
      await host.close();
      await store.close();
    }
  });
});
