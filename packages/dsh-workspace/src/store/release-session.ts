/**
 * @module release-session
 * A deleted session's checkpoints released: its keep-list removed, and every object no other
 * session's checkpoint or workspace index reaches collected (after a grace for checkpoints in flight).
 */
import { copyFile, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gitFailed, runGit } from '../run-git.js';
import { WorkspaceError } from '../workspace-error.js';
import { describe, sessionListPath, tempPath, type StoreContext } from './store-context.js';

const KEEP_REF = 'refs/dsh/keep';

/** Releases `sessionId`'s checkpoints and prunes what nothing else keeps. Releasing an unknown session is a no-op prune. */
export async function releaseSession(context: StoreContext, sessionId: string): Promise<void> {
  if (typeof sessionId !== 'string' || sessionId === '')
    throw new WorkspaceError('INVALID_OPTION', `Expected sessionId to be a non-empty string; got ${describe(sessionId)}.`);
  await context.ready();
  await rm(sessionListPath(context, sessionId), { force: true });
  await removeStaleTemps(context);
  const trees = new Set<string>();
  const sessions = join(context.dir, 'dsh', 'sessions');
  for (const name of await readdir(sessions)) {
    const text = await readFile(join(sessions, name), 'utf8').catch(() => '');
    for (const line of text.split('\n')) if (line !== '') trees.add(line);
  }
  for (const tree of await indexTrees(context)) trees.add(tree);
  const present = await presentTrees(context, [...trees]);
  await updateKeepRef(context, present);
  const expire = context.pruneGraceMs <= 0 ? 'now' : `${Math.ceil(context.pruneGraceMs / 1000)}.seconds.ago`;
  const pruned = await runGit(['prune', `--expire=${expire}`], { gitDir: context.dir });
  if (!pruned.ok) throw gitFailed('pruning the workspace store', pruned);
}

/** The tree each workspace index holds now (their blobs are what the next checkpoint reuses). */
async function indexTrees(context: StoreContext): Promise<string[]> {
  const folder = join(context.dir, 'dsh', 'indexes');
  const trees: string[] = [];
  for (const name of await readdir(folder)) {
    const copy = tempPath(context, 'release-index');
    try {
      await copyFile(join(folder, name), copy);
      const written = await runGit(['write-tree'], { gitDir: context.dir, indexFile: copy });
      if (written.ok) trees.push(written.stdout.toString('utf8').trim());
      // An index naming objects the store lost is only a stat cache: drop it, the next checkpoint rebuilds it.
      else await rm(join(folder, name), { force: true });
    } catch {
      // Renamed away by a checkpoint in another process meanwhile: its tree is on a keep-list.
    } finally {
      await rm(copy, { force: true });
      await rm(`${copy}.lock`, { force: true });
    }
  }
  return trees;
}

async function presentTrees(context: StoreContext, trees: string[]): Promise<string[]> {
  if (trees.length === 0) return [];
  const checked = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
    gitDir: context.dir,
    input: trees.map((tree) => `${tree}\n`).join(''),
  });
  if (!checked.ok) throw gitFailed('checking the kept trees', checked);
  return checked.stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line.endsWith(' tree'))
    .map((line) => line.slice(0, line.indexOf(' ')));
}

/** Points `refs/dsh/keep` at one tree whose entries are the kept trees (or deletes it when none). */
async function updateKeepRef(context: StoreContext, trees: string[]): Promise<void> {
  let args = ['update-ref', '-d', KEEP_REF];
  if (trees.length > 0) {
    const input = trees.map((tree, at) => `040000 tree ${tree}\t${at}\n`).join('');
    const made = await runGit(['mktree'], { gitDir: context.dir, input });
    if (!made.ok) throw gitFailed('writing the keep tree', made);
    args = ['update-ref', KEEP_REF, made.stdout.toString('utf8').trim()];
  }
  for (let attempt = 0; ; attempt += 1) {
    const updated = await runGit(args, { gitDir: context.dir });
    if (updated.ok) return;
    // Another process's release holds the ref's lock for a moment.
    if (attempt >= 20) throw gitFailed('updating the keep ref', updated);
    await sleep(25);
  }
}

/** Temporary indexes a killed process left (older than an hour). */
async function removeStaleTemps(context: StoreContext): Promise<void> {
  const folder = join(context.dir, 'dsh', 'tmp');
  const cutoff = Date.now() - 3_600_000;
  for (const name of await readdir(folder)) {
    const info = await stat(join(folder, name)).catch(() => undefined);
    if (info !== undefined && info.mtimeMs < cutoff) await rm(join(folder, name), { force: true });
  }
}
