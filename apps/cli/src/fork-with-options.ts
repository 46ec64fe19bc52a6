/**
 * @module fork-with-options
 * One fork with the options `dsh fork`, `/branch` and `/fork` share (SPEC §20): `--cwd DIR` and
 * `--tools a,b` change only those fields of the inherited config (`host.fork`'s `configPatch`),
 * `--worktree` gives the child its own git worktree on `dsh/<name>`; plus the shared-cwd warning.
 */
import { resolve } from 'node:path';
import type { SessionConfig } from 'dsh-codec';
import { defaultPeerNames, type ForkResult, type Host } from 'dsh-host';
import { CliError } from './cli-error.js';
import { addWorktree, checkoutOf, checkWorktreesFree, removeWorktree } from './peer-worktrees.js';
import { sharedCwdWarning } from './shared-cwd-warning.js';
import { parseSeq, parseTools } from './commands/print-command.js';

/** What to fork and how: the cut (omitted: after the latest closed turn), name, config changes. */
export type ForkRequest = { atSeq?: number; title?: string; cwd?: string; tools?: string[]; worktree: boolean; idempotencyKey?: string };

/** `--worktree`: the child's name (the title, else `<parent>-N`) and its new worktree's cwd. */
async function forkWorktree(host: Host, dataDir: string, ref: string, title: string | undefined): Promise<{ name: string; cwd: string }> {
  const parent = await host.resolve(ref);
  const sessions = await host.list();
  const taken = new Set(sessions.flatMap((item) => (item.title === undefined ? [] : [item.title])));
  const [fallback = parent] = defaultPeerNames(sessions.find((item) => item.id === parent)?.title ?? parent, taken, 1);
  const name = title ?? fallback;
  const checkout = await checkoutOf((await host.observe(parent)).cwd, ref);
  await checkWorktreesFree(checkout, dataDir, [name]);
  return { name, cwd: await addWorktree(checkout, dataDir, name) };
}

/** Forks `ref` as asked; a worktree made for a fork that then fails is removed again. */
export async function forkWithOptions(host: Host, dataDir: string, ref: string, request: ForkRequest): Promise<{ result: ForkResult; warning?: string }> {
  if (request.worktree && request.cwd !== undefined) throw new CliError('USAGE', "--worktree and --cwd both choose the child's directory: use one of them.");
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
  const cwd = (await host.observe(result.sessionId)).cwd;
  const warning = cwd === undefined ? undefined : await sharedCwdWarning(host, [result.sessionId], cwd);
  return warning === undefined ? { result } : { result, warning };
}

/**
 * The arguments of `/branch [NAME] [--cwd DIR] [--tools a,b] [--worktree]` and `/fork SEQ [NAME] […]`
 * (the same options as `dsh fork`; the other words are the name). `--cwd` is resolved against `cwd`.
 */
export function slashForkRequest(command: 'branch' | 'fork', words: readonly string[], cwd: string): ForkRequest {
  const request: ForkRequest = { worktree: false };
  const rest = [...words];
  if (command === 'fork') request.atSeq = parseSeq('/fork', rest.shift() ?? '');
  const name: string[] = [];
  while (rest.length > 0) {
    const word = rest.shift() as string;
    const [flag, inline] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined];
    const value = () => {
      const next = inline ?? rest.shift();
      if (next === undefined || next === '') throw new CliError('USAGE', `/${command} ${flag} expects a value; received none.`);
      return next;
    };
    if (flag === '--cwd') request.cwd = resolve(cwd, value());
    else if (flag === '--tools') request.tools = parseTools(value());
    else if (flag === '--worktree' && inline === undefined) request.worktree = true;
    else if (flag.startsWith('--')) throw new CliError('USAGE', `/${command} does not take ${word}: expected --cwd DIR, --tools a,b or --worktree.`);
    else name.push(word);
  }
  if (name.length > 0) request.title = name.join(' ');
  return request;
}
