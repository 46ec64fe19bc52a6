/**
 * @module fork-with-options
 * One fork with the options `dsh fork`, `/branch` and `/fork` share (SPEC §20): `--cwd DIR` and
 * `--tools a,b` change only those fields of the inherited config (`host.fork`'s `configPatch`),
 * `--worktree` gives the child its own directory holding the workspace at the cut (SPEC §23:
 * `fork-worktree-at-cut.ts`); plus the shared-cwd warning.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { SessionConfig } from 'dsh-codec';
import { defaultPeerNames, selectForkCut, type ForkResult, type Host } from 'dsh-host/core';
import type { SlashCommand } from 'dsh-host/commands';
import { CliError } from './cli-error.js';
import { refuseTakenName } from './refuse-taken-name.js';
import { prepareForkWorktree, type ForkWorkspace, type PreparedWorktree } from './fork-worktree-at-cut.js';
import { sharedCwdWarning } from './shared-cwd-warning.js';
import { checkTools } from './tools-option.js';

/** What to fork and how: the cut (omitted: after the latest closed turn), name, config changes. */
export type ForkRequest = {
  atSeq?: number;
  title?: string;
  cwd?: string;
  tools?: string[];
  worktree: boolean;
  idempotencyKey?: string;
  /** `false` (`--no-checkpoints`): the child takes no workspace checkpoints, stored in its config (SPEC §23). */
  checkpoints?: false;
};

/** `--worktree`: the child's name (the title, else `<parent>-N`), its id, the cut, and its directory holding the workspace at the cut. */
async function forkWorktree(
  host: Host,
  dataDir: string,
  ref: string,
  title: string | undefined,
  atSeq: number | undefined,
): Promise<{ name: string; id: string; cut: number; prepared: PreparedWorktree }> {
  const parent = await host.resolve(ref);
  const sessions = await host.list();
  const taken = new Set(sessions.flatMap((item) => (item.title === undefined ? [] : [item.title])));
  const [fallback = parent] = defaultPeerNames(sessions.find((item) => item.id === parent)?.title ?? parent, taken, 1);
  const name = title ?? fallback;
  // One observation gives the cut (the one host.fork is then asked for) and the checkpoint at it.
  const observation = await host.observe(parent);
  const cut = selectForkCut(observation.events, atSeq);
  const cwd = latestCwd(observation.events, cut) ?? observation.header.cwd;
  const id = randomUUID();
  const prepared = await prepareForkWorktree(host, dataDir, { sourceId: parent, childId: id, name, cut, cwd, events: observation.events });
  return { name, id, cut, prepared };
}

/** The cwd of the latest `session/config` at or before `cut` that sets one. */
function latestCwd(events: readonly { seq: number; type: string; data?: unknown }[], cut: number): string | undefined {
  let cwd: string | undefined;
  for (const event of events) {
    if (event.seq > cut) break;
    if (event.type !== 'session/config' || typeof event.data !== 'object' || event.data === null) continue;
    const value = (event.data as { cwd?: unknown }).cwd;
    if (typeof value === 'string') cwd = value;
  }
  return cwd;
}

/** Forks `ref` as asked; a directory made for a fork that then fails is removed again. */
export async function forkWithOptions(
  host: Host,
  dataDir: string,
  ref: string,
  request: ForkRequest,
): Promise<{ result: ForkResult; warning?: string; workspace?: ForkWorkspace }> {
  if (request.worktree && request.cwd !== undefined)
    throw new CliError('USAGE', "--worktree and --cwd both choose the child's directory: use one of them.");
  const patch: SessionConfig = {};
  if (request.cwd !== undefined) patch.cwd = request.cwd;
  if (request.tools !== undefined) patch.tools = request.tools;
  if (request.checkpoints === false) patch.checkpoints = false;
  // A retry under an Idempotency-Key finds its own earlier child, which carries the name already.
  const key = request.idempotencyKey;
  const retry = key === undefined ? undefined : { key, keyOf: async (id: string) => (await host.observe(id)).header.forkRequest?.key };
  if (request.title !== undefined) await refuseTakenName(host, request.title, undefined, retry);
  let title = request.title;
  let atSeq = request.atSeq;
  let id: string | undefined;
  let prepared: PreparedWorktree | undefined;
  if (request.worktree) {
    const made = await forkWorktree(host, dataDir, ref, title, atSeq);
    title = made.name;
    patch.cwd = made.prepared.workspace.dir;
    atSeq = made.cut;
    id = made.id;
    prepared = made.prepared;
  }
  let result: ForkResult;
  try {
    result = await host.fork(ref, {
      ...(atSeq === undefined ? {} : { atSeq }),
      ...(id === undefined ? {} : { id }),
      ...(title === undefined ? {} : { title }),
      ...(Object.keys(patch).length === 0 ? {} : { configPatch: patch }),
      ...(request.idempotencyKey === undefined ? {} : { idempotencyKey: request.idempotencyKey }),
      // The child's files are the checkpoint at the cut: its closers say so (SPEC §23).
      ...(prepared?.workspace.workspace === 'checkpoint' ? { workspace: 'at-cut' as const } : {}),
    });
  } catch (error) {
    if (prepared !== undefined) await prepared.undo().catch(() => undefined);
    throw error;
  }
  if (prepared !== undefined && result.sessionId !== id) {
    // An Idempotency-Key found an earlier child: the directory made for this request is not needed.
    await prepared.undo().catch(() => undefined);
    prepared = undefined;
  }
  // One listing of the busy sessions (the child is one) gives the child's cwd and the live ones sharing it;
  // no other session's summary is read (SPEC §24).
  const listed = await host.list({ busy: true });
  const cwd = listed.find((item) => item.id === result.sessionId)?.cwd;
  const warning = cwd === undefined ? undefined : await sharedCwdWarning(host, [result.sessionId], cwd, listed);
  return {
    result,
    ...(warning === undefined ? {} : { warning }),
    ...(prepared === undefined ? {} : { workspace: prepared.workspace }),
  };
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
