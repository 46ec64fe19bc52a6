/**
 * @module run-checkpoint-workload
 * Workload: SPEC §23's checkpoint cost. A checkpoint of a 10,000-file git checkout after one changed
 * file, and the first checkpoint of that checkout, each against `git add -A && git write-tree` on a
 * private index of the same tree (git's own cost for the same answer), in the same rounds; and a worktree
 * at a checkpoint against `git worktree add` of HEAD.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gitText, openWorkspaceStore, openWorktrees, type WorkspaceStore } from 'dsh-workspace';
import type { BenchContext } from '../harness/bench-context.js';
import { figureOf } from '../harness/figure.js';
import { measureRounds, seriesOf, timeMs } from '../harness/measure-rounds.js';
import type { Section } from '../harness/report.js';

const WORKLOAD = 'Checkpoint';
/** Budgets no run reaches: the figures time the whole capture, never a cut-short one. */
const UNBOUNDED = { budgetMs: 3_600_000, maxNewBytes: Number.MAX_SAFE_INTEGER };

/** A git checkout of `files` text files (100 per folder, 0.5–3 kB each), committed. */
async function makeCheckout(root: string, files: number): Promise<void> {
  await mkdir(root, { recursive: true });
  for (let folder = 0; folder * 100 < files; folder += 1) {
    const dir = join(root, 'src', `m${String(folder).padStart(3, '0')}`);
    await mkdir(dir, { recursive: true });
    for (let at = 0; at < 100 && folder * 100 + at < files; at += 1) {
      const line = `export const v${String(at)} = ${String(folder * 100 + at)}; // module ${String(folder)}\n`;
      await writeFile(join(dir, `f${String(at)}.ts`), line.repeat(10 + ((folder * 7 + at) % 40)));
    }
  }
  await writeFile(join(root, '.gitignore'), 'node_modules/\n*.log\n');
  const git = (...args: string[]) => execFileSync('git', ['-C', root, '-c', 'user.name=bench', '-c', 'user.email=b@b', ...args]);
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'checkout');
}

/** `git add -A && git write-tree` with `index` as the index, objects into `gitDir`: the baseline. */
async function addAllAndWriteTree(gitDir: string, workTree: string, index: string): Promise<string> {
  const target = { gitDir, workTree, indexFile: index };
  await gitText('git add -A', ['add', '-A'], target);
  return (await gitText('git write-tree', ['write-tree'], target)).trim();
}

/** `git worktree add --detach PATH HEAD` in `checkout`: the baseline of a worktree at a checkpoint. */
async function gitWorktreeAdd(checkout: string, path: string): Promise<void> {
  await promisify(execFile)('git', ['-C', checkout, 'worktree', 'add', '-q', '--detach', path, 'HEAD']);
}

async function bareRepository(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await gitText('git init', ['init', '--bare', '--quiet', '--template='], { gitDir: dir });
  return dir;
}

/** Workload: one changed file in a 10,000-file checkout, and the first checkpoint of it. */
export async function runCheckpointWorkload(context: BenchContext): Promise<Section> {
  const { runs, log } = context;
  const files = context.quick ? 2_000 : 10_000;
  const root = join(context.dataDir, 'checkpoint');
  const checkout = join(root, 'checkout');
  log(`checkpoint: a checkout of ${String(files)} files`);
  await makeCheckout(checkout, files);
  // Files written in the second an index is written are "racily clean" to git and hashed again next
  // time; let that second pass, as it has for any real checkout.
  await sleep(1100);

  let fresh = 0;
  const firstRounds = await measureRounds({
    runs: Math.min(runs, 3),
    warmup: 0,
    steps: {
      first: async () => {
        fresh += 1;
        const store = openWorkspaceStore({ dir: join(root, `first-${String(fresh)}.git`) });
        // The store's creation is not the checkpoint's cost: create it on an empty folder first.
        const empty = join(root, `empty-${String(fresh)}`);
        await mkdir(empty);
        await store.checkpoint(empty, { sessionId: 'prime', ...UNBOUNDED });
        return timeMs(() => store.checkpoint(checkout, { sessionId: 'bench', ...UNBOUNDED }));
      },
      gitFirst: async () => {
        fresh += 1;
        const gitDir = await bareRepository(join(root, `git-first-${String(fresh)}.git`));
        return timeMs(() => addAllAndWriteTree(gitDir, checkout, join(root, `git-first-${String(fresh)}.index`)));
      },
    },
  });

  log('checkpoint: one changed file');
  const store: WorkspaceStore = openWorkspaceStore({ dir: join(root, 'store.git') });
  const gitDir = await bareRepository(join(root, 'git.git'));
  const gitIndex = join(root, 'git.index');
  await store.checkpoint(checkout, { sessionId: 'bench', ...UNBOUNDED });
  await addAllAndWriteTree(gitDir, checkout, gitIndex);
  await sleep(1100);
  const changed = join(checkout, 'src', 'm000', 'f1.ts');
  let edit = 0;
  const touch = () => writeFile(changed, `export const edited = ${String((edit += 1))};\n`);
  const oneRounds = await measureRounds({
    runs: Math.max(runs, 5) * 4,
    warmup: 2,
    steps: {
      one: async () => {
        await touch();
        return timeMs(() => store.checkpoint(checkout, { sessionId: 'bench', ...UNBOUNDED }));
      },
      gitOne: async () => {
        await touch();
        return timeMs(() => addAllAndWriteTree(gitDir, checkout, gitIndex));
      },
    },
  });
  log('checkpoint: a worktree at the checkpoint');
  // The checkpoint of a changed checkout, then: a worktree holding it (dsh) against a worktree of HEAD (git).
  await touch();
  const atCut = await store.checkpoint(checkout, { sessionId: 'bench', ...UNBOUNDED });
  const worktrees = openWorktrees({ dataDir: join(root, 'data'), store });
  const head = execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  let made = 0;
  const worktreeRounds = await measureRounds({
    runs: Math.min(runs, 5),
    warmup: 1,
    steps: {
      worktree: async () => {
        made += 1;
        const name = `bench-${String(made)}`;
        return timeMs(() =>
          worktrees.prepare({ sourceId: 'bench', sourceCwd: checkout, checkpoint: { ...atCut, head }, name, childId: `child-${name}` }),
        );
      },
      gitWorktree: async () => {
        made += 1;
        const path = join(root, `git-worktree-${String(made)}`);
        return timeMs(() => gitWorktreeAdd(checkout, path));
      },
    },
  });
  const label = `${files.toLocaleString('en-US')}-file checkout`;
  return {
    title: '11. Checkpoints (SPEC §23)',
    method: `
A git checkout of ${files.toLocaleString('en-US')} text files in ${String(Math.ceil(files / 100))} folders, committed.
**One changed file**: each round rewrites one file, then \`store.checkpoint(cwd)\` (dsh-workspace: the
workspace's private index lists what changed by stat, only that is hashed, then \`write-tree\`; plus the
session keep-list line) against \`git add -A && git write-tree\` with its own private index and object
store, on the same tree, each run through \`runGit\` (same safe settings). **First checkpoint**: a new
store (created beforehand on an empty folder) and no index, against the same git commands with a new
index and a new bare repository. Budgets are set out of reach so both capture every file. **Worktree at a
checkpoint**: \`openWorktrees().prepare\` (a commit of the checkpoint's tree on \`dsh/<name>\`, its worktree) against
\`git worktree add\` of HEAD in the same checkout. Targets (SPEC §23): ≤ 1.2× and ≤ 50 ms median after one changed
file, ≤ 1.5× for the first, ≤ 1.5× for the worktree.`,
    figures: [
      figureOf(
        {
          workload: WORKLOAD,
          label: `checkpoint after one changed file, ${label}`,
          metric: 'ms',
          baselineLabel: 'git add -A && git write-tree (private index)',
          // SPEC §23: ≤ 1.2× git, and ≤ 50 ms median.
          target: { op: '<=', value: 1.2, medianAtMost: 50 },
        },
        seriesOf(oneRounds, 'one'),
        seriesOf(oneRounds, 'gitOne'),
      ),
      figureOf(
        {
          workload: WORKLOAD,
          label: `first checkpoint, ${label}`,
          metric: 'ms',
          baselineLabel: 'git add -A && git write-tree (new index, new repository)',
          target: { op: '<=', value: 1.5 },
        },
        seriesOf(firstRounds, 'first'),
        seriesOf(firstRounds, 'gitFirst'),
      ),
      figureOf(
        {
          workload: WORKLOAD,
          label: `worktree at a checkpoint, ${label}`,
          metric: 'ms',
          baselineLabel: 'git worktree add of HEAD',
          target: { op: '<=', value: 1.5 },
        },
        seriesOf(worktreeRounds, 'worktree'),
        seriesOf(worktreeRounds, 'gitWorktree'),
      ),
    ],
    notes: [],
  };
}
