/**
 * @module fork-with-options
 * One fork with the options `dsh fork`, `/branch` and `/fork` share (SPEC §20): `--cwd DIR` and
 * `--tools a,b` change only those fields of the inherited config (`host.fork`'s `configPatch`),
 * `--worktree` gives the child its own git worktree on `dsh/<name>`; plus the shared-cwd warning.
 */
import { resolve } from 'node:path';
import type { SessionConfig } from 'dsh-codec';
import { defaultPeerNames, type ForkResult, type Host } from 'dsh-host';
import type { SlashCommand } from 'dsh-host/commands';
import { CliError } from './cli-error.js';
import { addWorktrees, checkoutOf, checkWorktreesFree } from './peer-worktrees.js';
import { removeWorktree } from './remove-peer-worktree.js';
import { sharedCwdWarning } from './shared-cwd-warning.js';
import { checkTools } from './commands/print-command.js';

/** What to fork and how: the cut (omitted: after the latest closed turn), name, config changes. */
export type ForkRequest = { atSeq?: number; title?: string; cwd?: string; tools?: string[]; worktree: boolean; idempotencyKey?: string };

/** `--worktree`: the child's name (the title, else `<parent>-N`) and its new worktree's cwd. */
async function forkWorktree(host: Host, dataDir: string, ref: string, title: string | undefined): Promise<{ name: string; cwd: string }> {
  const parent = await host.resolve(ref);
  const sessions = await host.list();
  const taken = new Set(sessions.flatMap((item) => (item.title === undefined ? [] : [item.title])));
  const [fallback = parent] = defaultPeerNames(sessions.find((item) => item.id === parent)?.title ?? parent, taken, 1);
  const name = title ?? fallback;
  // The parent's cwd as its summary lists it: its events are not read.
  const checkout = await checkoutOf(sessions.find((item) => item.id === parent)?.cwd, ref, dataDir);
  await checkWorktreesFree(checkout, dataDir, [name]);
  const [cwd] = await addWorktrees(checkout, dataDir, [name]);
  return { name, cwd: cwd as string };
}

/** Forks `ref` as asked; a worktree made for a fork that then fails is removed again. */
export async function forkWithOptions(
  host: Host,
  dataDir: string,
  ref: string,
  request: ForkRequest,
): Promise<{ result: ForkResult; warning?: string }> {
  if (request.worktree && request.cwd !== undefined)
    throw new CliError('USAGE', "--worktree and --cwd both choose the child's directory: use one of them.");
  const patch: SessionConfig = {};
  if (request.cwd !== undefined) patch.cwd = request.cwd;
  if (request.tools !== undefined) patch.tools = request.tools;
  let title = request.title;
  let worktree: string | undefined;
  if (request.worktree) {
    const made = await forkWorktree(host, dataDir, ref, title);
    title = made.name;
    patch.cwd = made.cwd;
    worktree = made.name;
  }
  let result: ForkResult;
  try {
    result = await host.fork(ref, {
      ...(request.atSeq === undefined ? {} : { atSeq: request.atSeq }),
      ...(title === undefined ? {} : { title }),
      ...(Object.keys(patch).length === 0 ? {} : { configPatch: patch }),
      ...(request.idempotencyKey === undefined ? {} : { idempotencyKey: request.idempotencyKey }),
    });
  } catch (error) {
    if (worktree !== undefined) await removeWorktree(dataDir, worktree, true).catch(() => undefined);
    throw error;
  }
  // One listing (summaries, never whole logs) gives the child's cwd and the sessions sharing it.
  const listed = await host.list();
  const cwd = listed.find((item) => item.id === result.sessionId)?.cwd;
  const warning = cwd === undefined ? undefined : await sharedCwdWarning(host, [result.sessionId], cwd, listed);
  return warning === undefined ? { result } : { result, warning };
}

/** `/branch` or `/fork` as the grammar (`dsh-host/commands`) parsed it. */
export type SlashForkCommand = Extract<SlashCommand, { name: 'branch' | 'fork' }>;

/**
 * The request of `/branch [NAME] [--cwd DIR] [--tools a,b] [--worktree]` or `/fork SEQ [NAME] […]`
 * (the same options as `dsh fork`): `--cwd` is resolved against `cwd`, `--tools` names are checked.
 */
export function slashForkRequest(command: SlashForkCommand, cwd: string): ForkRequest {
  const request: ForkRequest = { worktree: command.worktree };
  if (command.name === 'fork') request.atSeq = command.atSeq;
  if (command.title !== undefined) request.title = command.title;
  if (command.cwd !== undefined) request.cwd = resolve(cwd, command.cwd);
  if (command.tools !== undefined) request.tools = checkTools(command.tools);
  return request;
}
