import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatCompletionChunk, makeTempDir, type ModelServerRequest, printJson, runDsh, spawnDsh, startModelServer } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';
import { git } from './run-git.js';

const dirs = useCliTestDirs('dsh-peers', { work: true });

type Peer = {
  name: string;
  session_id: string;
  cwd: string;
  result: string;
  is_error: boolean;
  subtype: string;
  num_turns: number;
  files_changed: string[];
  error_code?: string;
};
type PeersOutput = { baseline: { session_id: string; cut: number }; peers: Peer[] };
type Listed = { id: string; title?: string; parentSession?: string; forkCut?: number };

async function peersJson(args: readonly string[], expectedCode = 0, env: Record<string, string> = {}): Promise<PeersOutput> {
  const result = await runDsh(['peers', ...args, '--output-format', 'json', '--data', dirs.data.path], {
    cwd: dirs.work.path,
    env,
    timeoutMs: 120_000,
  });
  expect(result.code, result.stderr).toBe(expectedCode);
  return JSON.parse(result.stdout) as PeersOutput;
}

async function sessions(): Promise<Listed[]> {
  const listed = await runDsh(['sessions', '--json', '--data', dirs.data.path]);
  return JSON.parse(listed.stdout) as Listed[];
}

async function header(id: string): Promise<Record<string, unknown>> {
  const shown = await runDsh(['show', id, '--json', '--data', dirs.data.path]);
  return (JSON.parse(shown.stdout) as { header: Record<string, unknown> }).header;
}

/** The text of the last user message of an OpenAI-shaped request body. */
function lastUserText(request: ModelServerRequest): string {
  const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
  const content = messages.findLast((message) => message.role === 'user')?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

describe('dsh peers: one baseline, several alternatives at one cut, run at once', () => {
  it(
    'forks every peer at the same cut of the baseline, reports them in prompt order, and a peer resumes by name without forking',
    { timeout: 240_000 },
    async () => {
      const base = await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
      const output = await peersJson(['base', '--prompt', 'read notes.md', '--prompt', 'list files']);
      expect(output.baseline.session_id).toBe(base.sessionId);
      expect(output.peers.map((peer) => peer.name)).toEqual(['base-1', 'base-2']);
      expect(output.peers[0]).toMatchObject({ is_error: false, subtype: 'success', cwd: dirs.work.path, files_changed: [] });
      expect(output.peers[0]!.result).toContain('remember the milk');
      expect(output.peers[1]!.result).toContain('notes.md');
      for (const peer of output.peers) {
        expect(await header(peer.session_id)).toMatchObject({
          parentSession: base.sessionId,
          forkCut: output.baseline.cut,
          inheritedEventCount: output.baseline.cut + 1,
        });
      }

      const resumed = await printJson(['-p', 'list files', '--resume', 'base-1', '--data', dirs.data.path], { cwd: dirs.work.path });
      expect(resumed.sessionId).toBe(output.peers[0]!.session_id);
      expect(resumed.parentSession).toBeUndefined();

      // Running peers again forks new siblings of the baseline, named after the old ones.
      const again = await peersJson(['base', '--prompt', 'list files']);
      expect(again.peers.map((peer) => peer.name)).toEqual(['base-3']);
      expect(await header(again.peers[0]!.session_id)).toMatchObject({ parentSession: base.sessionId });
      expect((await sessions()).filter((item) => item.parentSession === base.sessionId)).toHaveLength(3);
    },
  );

  it(
    '--no-checkpoints is stored in every peer: each records checkpoints: false, takes none, and a later dsh -p resume takes none either',
    { timeout: 240_000 },
    async () => {
      await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
      const output = await peersJson(['base', '--prompt', 'list files', '--prompt', 'list files', '--no-checkpoints']);
      for (const peer of output.peers) {
        const shown = await runDsh(['show', peer.session_id, '--json', '--data', dirs.data.path]);
        const events = (JSON.parse(shown.stdout) as { events: { seq: number; type: string; data: unknown }[] }).events;
        expect(events.findLast((event) => event.type === 'session/config')?.data).toMatchObject({ checkpoints: false });
        const own = events.filter((event) => event.seq > output.baseline.cut).map((event) => event.type);
        expect(own).toContain('turn/end');
        expect(own).not.toContain('workspace/checkpoint');
      }
      const resumed = await runDsh(['-p', 'list files', '--resume', 'base-1', '--output-format', 'events', '--data', dirs.data.path], {
        cwd: dirs.work.path,
      });
      expect(resumed.code, resumed.stderr).toBe(0);
      const types = resumed.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { type: string }).type);
      expect(types).toContain('turn/start');
      expect(types).not.toContain('workspace/checkpoint');
      // The baseline, forked by a command with the flag, keeps its own choice (on).
      const baseline = await runDsh(['-p', 'list files', '--resume', 'base', '--output-format', 'events', '--data', dirs.data.path], {
        cwd: dirs.work.path,
      });
      expect(baseline.stdout).toContain('"workspace/checkpoint"');
    },
  );

  it('runs the prompts concurrently: the first answer is held until the second request has arrived', { timeout: 240_000 }, async () => {
    await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
    let secondArrived: () => void = () => undefined;
    const second = new Promise<void>((resolve) => {
      secondArrived = resolve;
    });
    dirs.server = await startModelServer((request, index) => {
      if (index === 1) secondArrived();
      const text = `answer to ${lastUserText(request)}`;
      return {
        chunks: [
          chatCompletionChunk({ role: 'assistant', content: '' }),
          ...(index === 0 ? [second] : []),
          chatCompletionChunk({ content: text }),
          chatCompletionChunk({}, 'stop'),
          'data: [DONE]\n\n',
        ],
      };
    });
    const env = { OPENAI_BASE_URL: `${dirs.server.origin}/v1`, OPENAI_API_KEY: 'sk-test' };
    const output = await peersJson(['base', '--prompt', 'alpha', '--prompt', 'beta', '--model', 'openai:m', '--tools', ''], 0, env);
    expect(dirs.server.requests).toHaveLength(2);
    expect(output.peers.map((peer) => peer.result)).toEqual([expect.stringContaining('alpha'), expect.stringContaining('beta')]);
  });

  it('reports a peer whose model fails beside the one that succeeded, and exits 1', { timeout: 240_000 }, async () => {
    await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
    dirs.server = await startModelServer((request) => {
      if (lastUserText(request).includes('fail'))
        return { status: 400, json: { error: { message: 'this prompt is refused', type: 'invalid_request_error' } } };
      return { chunks: [chatCompletionChunk({ role: 'assistant', content: 'fine' }), chatCompletionChunk({}, 'stop'), 'data: [DONE]\n\n'] };
    });
    const env = { OPENAI_BASE_URL: `${dirs.server.origin}/v1`, OPENAI_API_KEY: 'sk-test' };
    const output = await peersJson(
      ['base', '--prompt', 'please fail', '--prompt', 'succeed', '--model', 'openai:m', '--tools', ''],
      1,
      env,
    );
    expect(output.peers[0]).toMatchObject({
      name: 'base-1',
      is_error: true,
      subtype: 'error_during_execution',
      error_code: 'MODEL_HTTP_ERROR',
    });
    expect(output.peers[1]).toMatchObject({ name: 'base-2', is_error: false, result: 'fine' });

    const text = await runDsh(
      ['peers', 'base', '--prompt', 'fail again', '--prompt', 'fine again', '--model', 'openai:m', '--tools', '', '--data', dirs.data.path],
      { cwd: dirs.work.path, env },
    );
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/── base-3[\s\S]*error: +error \(MODEL_HTTP_ERROR\)[\s\S]*this prompt is refused/);
    expect(text.stdout).toMatch(/── base-4[\s\S]*error: +none[\s\S]*fine/);
  });

  it(
    '--worktree from HEAD (no checkpoint at the cut) warns naming the baseline checkout’s uncommitted changes the peers do not get',
    { timeout: 240_000 },
    async () => {
      git(dirs.work.path, 'init', '-q');
      git(dirs.work.path, 'add', '.');
      git(dirs.work.path, 'commit', '-qm', 'start');
      await printJson(['-p', 'list files', '--name', 'base', '--no-checkpoints', '--data', dirs.data.path], { cwd: dirs.work.path });
      await writeFile(join(dirs.work.path, 'notes.md'), 'changed after the commit\n');
      await writeFile(join(dirs.work.path, 'new.txt'), 'never committed\n');
      const ran = await runDsh(
        ['peers', 'base', '--prompt', 'list files', '--prompt', 'list files', '--worktree', '--no-checkpoints', '--data', dirs.data.path],
        { cwd: dirs.work.path, timeoutMs: 120_000 },
      );
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stderr).toContain("the peers' worktrees hold the repository's HEAD, not the files at the cut.");
      expect(ran.stderr).toContain("The baseline's checkout has uncommitted changes the peers do not get (new.txt, notes.md)");
      const peer = join(dirs.data.path, 'worktrees', 'base-1');
      expect(existsSync(join(peer, 'new.txt'))).toBe(false);
      expect(await readFile(join(peer, 'notes.md'), 'utf8')).not.toBe('changed after the commit\n');
    },
  );

  it(
    '--worktree gives each peer its own checkout: nothing one writes appears in the baseline or the other',
    { timeout: 240_000 },
    async () => {
      git(dirs.work.path, 'init', '-q');
      git(dirs.work.path, 'add', '.');
      git(dirs.work.path, 'commit', '-qm', 'start');
      await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
      // Keyless answers "write PATH: TEXT" with one write_file call, whichever peer asks first.
      const output = await peersJson([
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
      expect(a.cwd).toBe(join(dirs.data.path, 'worktrees', 'pa'));
      expect(b.cwd).toBe(join(dirs.data.path, 'worktrees', 'pb'));
      expect([a.files_changed, b.files_changed]).toEqual([['a.txt'], ['b.txt']]);
      expect(await readFile(join(a.cwd, 'a.txt'), 'utf8')).toBe('from A');
      expect(existsSync(join(a.cwd, 'b.txt'))).toBe(false);
      expect(existsSync(join(b.cwd, 'a.txt'))).toBe(false);
      expect(git(dirs.work.path, 'status', '--porcelain', '--untracked-files=all')).toBe('');
      expect(git(a.cwd, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('dsh/pa');
      // The workspace at the cut is HEAD's own tree (the baseline only listed files): the branch starts
      // at HEAD itself, as SPEC §20 says, with no empty commit (a changed workspace gets one: SPEC §23).
      expect(git(b.cwd, 'rev-parse', 'HEAD')).toBe(git(dirs.work.path, 'rev-parse', 'HEAD'));

      // Removal never drops uncommitted work silently.
      const refused = await runDsh(['peers', '--remove', 'pa', '--data', dirs.data.path]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('WORKTREE_HAS_CHANGES');
      expect(existsSync(a.cwd)).toBe(true);
      git(b.cwd, 'add', '.');
      git(b.cwd, 'commit', '-qm', 'peer b');
      const unmerged = await runDsh(['peers', '--remove', 'pb', '--data', dirs.data.path]);
      expect(unmerged.code).toBe(1);
      expect(unmerged.stderr).toContain('BRANCH_NOT_MERGED');
      const forced = await runDsh(['peers', '--remove', 'pa', 'pb', '--force', '--data', dirs.data.path]);
      expect(forced.code, forced.stderr).toBe(0);
      expect(existsSync(a.cwd) || existsSync(b.cwd)).toBe(false);
      expect(git(dirs.work.path, 'branch', '--list', 'dsh/*')).toBe('');
    },
  );

  it(
    'refuses --worktree outside a git repository (NOT_A_GIT_REPOSITORY), a taken name, and a --cwd count that does not match, creating nothing',
    { timeout: 240_000 },
    async () => {
      await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
      const before = (await sessions()).length;
      const notGit = await runDsh(['peers', 'base', '--prompt', 'x', '--worktree', '--data', dirs.data.path], { cwd: dirs.work.path });
      expect([notGit.code, notGit.stderr]).toEqual([1, expect.stringContaining('NOT_A_GIT_REPOSITORY')]);
      const taken = await runDsh(['peers', 'base', '--prompt', 'x', '--prompt', 'y', '--name', 'base', '--data', dirs.data.path], {
        cwd: dirs.work.path,
      });
      expect([taken.code, taken.stderr]).toEqual([1, expect.stringContaining("NAME_TAKEN: Peer name 'base' is taken")]);
      const cwdCount = await runDsh(
        ['peers', 'base', '--prompt', 'x', '--prompt', 'y', '--cwd', dirs.work.path, '--data', dirs.data.path],
        { cwd: dirs.work.path },
      );
      expect([cwdCount.code, cwdCount.stderr]).toEqual([2, expect.stringContaining('expected one --cwd DIR per prompt')]);
      const noPrompt = await runDsh(['peers', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
      expect([noPrompt.code, noPrompt.stderr]).toEqual([2, expect.stringContaining('--prompt')]);
      const both = await runDsh(['peers', 'base', '--prompt', 'x', '--worktree', '--cwd', dirs.work.path, '--data', dirs.data.path], {
        cwd: dirs.work.path,
      });
      expect(both.code).toBe(2);
      expect(await sessions()).toHaveLength(before);
    },
  );

  it('--cwd gives each peer its own directory', { timeout: 240_000 }, async () => {
    await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
    const one = await makeTempDir('dsh-peers-one-');
    const two = await makeTempDir('dsh-peers-two-');
    try {
      const output = await peersJson([
        'base',
        '--prompt',
        'write x.txt: 1',
        '--prompt',
        'write x.txt: 2',
        '--cwd',
        one.path,
        '--cwd',
        two.path,
      ]);
      expect(output.peers.map((peer) => [peer.cwd, peer.files_changed])).toEqual([
        [one.path, ['x.txt']],
        [two.path, ['x.txt']],
      ]);
      expect([await readFile(join(one.path, 'x.txt'), 'utf8'), await readFile(join(two.path, 'x.txt'), 'utf8')]).toEqual(['1', '2']);
    } finally {
      await one.remove();
      await two.remove();
    }
  });

  it('killed with SIGKILL while its peers run, leaves every created peer valid and resumable', { timeout: 240_000 }, async () => {
    await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
    let bothAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      bothAsked = resolve;
    });
    dirs.server = await startModelServer((_request, index) => {
      if (index === 1) bothAsked();
      return 'hang';
    });
    const child = spawnDsh(
      ['peers', 'base', '--prompt', 'one', '--prompt', 'two', '--model', 'openai:m', '--tools', '', '--data', dirs.data.path],
      {
        cwd: dirs.work.path,
        env: { OPENAI_BASE_URL: `${dirs.server.origin}/v1`, OPENAI_API_KEY: 'sk-test' },
      },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await asked;
    child.kill('SIGKILL');
    await exited;

    const peers = (await sessions()).filter((item) => item.title?.startsWith('base-') === true);
    expect(peers.map((peer) => peer.title).sort()).toEqual(['base-1', 'base-2']);
    for (const peer of peers) {
      const valid = await runDsh(['validate', join(dirs.data.path, `${peer.id}.jsonl`)]);
      expect(valid.code, valid.stdout + valid.stderr).toBe(0);
      const resumed = await printJson(['-p', 'list files', '--resume', peer.title!, '--model', 'keyless', '--data', dirs.data.path], {
        cwd: dirs.work.path,
      });
      expect(resumed).toMatchObject({ sessionId: peer.id, isError: false });
      const shown = await runDsh(['show', peer.id, '--json', '--data', dirs.data.path]);
      const events = (JSON.parse(shown.stdout) as { events: { type: string; data: { reason?: { kind: string } } }[] }).events;
      expect(
        events
          .filter((event) => event.type === 'turn/end')
          .map((event) => event.data.reason?.kind)
          .slice(-2),
      ).toEqual(['interrupted', 'completed']);
    }
  });
});
