/**
 * After `dsh peers`, through the real bin: `dsh peers --compare A B` shows two existing sessions side
 * by side with a diff of their final answers, and `dsh sessions --tree` marks peers (siblings that
 * share their parent and cut).
 */
import { describe, expect, it } from 'vitest';
import { printJson, runDsh } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';

const dirs = useCliTestDirs('dsh-compare', { work: true });

type Side = {
  name: string;
  session_id: string;
  parent_session: string | null;
  fork_cut: number | null;
  result: string;
  num_turns: number;
  tool_calls: string[];
  files_changed: string[];
};
type Comparison = { peers: boolean; sessions: [Side, Side]; answer_diff: { kind: string; text: string }[] | null };

const dsh = (args: string[]) => runDsh([...args, '--data', dirs.data.path], { cwd: dirs.work.path, timeoutMs: 120_000 });

describe('dsh peers --compare and peers in the tree', () => {
  it('compares two peers: what each did since the fork, their answers, and a line diff of the answers', { timeout: 240_000 }, async () => {
    const base = await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
    const made = await dsh(['peers', 'base', '--prompt', 'read notes.md', '--prompt', 'write x.txt: hi', '--output-format', 'json']);
    expect(made.code, made.stderr).toBe(0);
    const cut = (JSON.parse(made.stdout) as { baseline: { cut: number } }).baseline.cut;

    const json = await dsh(['peers', '--compare', 'base-1', 'base-2', '--output-format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const comparison = JSON.parse(json.stdout) as Comparison;
    const [one, two] = comparison.sessions;
    expect(comparison.peers).toBe(true);
    expect(one).toMatchObject({
      name: 'base-1',
      parent_session: base.sessionId,
      fork_cut: cut,
      num_turns: 1,
      tool_calls: ['read_file'],
      files_changed: [],
    });
    expect(two).toMatchObject({
      name: 'base-2',
      parent_session: base.sessionId,
      fork_cut: cut,
      num_turns: 1,
      tool_calls: ['write_file'],
      files_changed: ['x.txt'],
    });
    expect(one.result).toContain('remember the milk');
    const diff = comparison.answer_diff ?? [];
    expect(
      diff
        .filter((line) => line.kind !== '+')
        .map((line) => line.text)
        .join('\n'),
    ).toBe(one.result);
    expect(
      diff
        .filter((line) => line.kind !== '-')
        .map((line) => line.text)
        .join('\n'),
    ).toBe(two.result);
    expect(diff.some((line) => line.kind === '-') && diff.some((line) => line.kind === '+')).toBe(true);

    const text = await dsh(['peers', '--compare', 'base-1', 'base-2']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`peers: both forked from ${String(base.sessionId)} at seq ${String(cut)}`);
    expect(text.stdout).toMatch(/^tool calls +read_file +write_file$/m);
    expect(text.stdout).toMatch(/^files changed +none +x\.txt$/m);
    expect(text.stdout).toMatch(/^- .*remember the milk/m);

    // The baseline and one of its peers are no peers of each other.
    const mixed = JSON.parse((await dsh(['peers', '--compare', 'base', 'base-1', '--output-format', 'json'])).stdout) as Comparison;
    expect(mixed.peers).toBe(false);
    const oneRef = await dsh(['peers', '--compare', 'base-1']);
    expect([oneRef.code, oneRef.stderr]).toEqual([2, expect.stringContaining('expects two sessions')]);
  });

  it(
    'dsh sessions --tree marks siblings at one parent and cut as peers, and not a lone fork at another cut',
    { timeout: 240_000 },
    async () => {
      await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
      const made = await dsh(['peers', 'base', '--prompt', 'list files', '--prompt', 'read notes.md', '--output-format', 'json']);
      expect(made.code, made.stderr).toBe(0);
      const cut = (JSON.parse(made.stdout) as { baseline: { cut: number } }).baseline.cut;
      const lone = await dsh(['fork', 'base', '--at', '1', '--name', 'early']);
      expect(lone.code, lone.stderr).toBe(0);

      const tree = await dsh(['sessions', '--tree']);
      expect(tree.code, tree.stderr).toBe(0);
      const lines = tree.stdout.split('\n');
      for (const name of ['base-1', 'base-2'])
        expect(lines.find((line) => line.includes(`─ ${name} `))).toContain(`[peer of base @ ${String(cut)}]`);
      expect(lines.find((line) => line.includes('─ early '))).not.toContain('[peer of');
    },
  );
});
