import { resolve } from 'node:path';
import type { SessionConfig } from 'dsh-codec';
import { defaultPeerNames, type Host } from 'dsh-host';
import { CliError } from '../cli-error.js';
import { resolveDataDir, type CliContext } from '../cli-context.js';
import { pathExists } from '../native-files.js';
import { nativeFileUnlessStored } from '../observe-session-or-file.js';
import type { OptionValues } from '../parse-command-line.js';
import { addWorktree, checkoutOf, checkWorktreesFree, removeWorktree } from '../peer-worktrees.js';
import { sharedCwdWarning } from '../shared-cwd-warning.js';
import { storeArguments } from '../store-arguments.js';
import { withHost } from '../with-host.js';
import { parseSeq, parseTools } from './print-command.js';

/** `--worktree`: the child's name (`--name`, else `<parent>-N`) and its new worktree's cwd. */
async function forkWorktree(context: CliContext, values: OptionValues, host: Host, ref: string): Promise<{ name: string; cwd: string }> {
  const parent = await host.resolve(ref);
  const sessions = await host.list();
  const taken = new Set(sessions.flatMap((item) => (item.title === undefined ? [] : [item.title])));
  const name = typeof values.name === 'string' ? values.name : (defaultPeerNames(sessions.find((item) => item.id === parent)?.title ?? parent, taken, 1)[0] as string);
  const checkout = await checkoutOf((await host.observe(parent)).cwd, ref);
  const dataDir = resolveDataDir(context, values.data);
  await checkWorktreesFree(checkout, dataDir, [name]);
  return { name, cwd: await addWorktree(checkout, dataDir, name) };
}

/**
 * `dsh fork ID|NAME [--at SEQ] [--name N] [--cwd DIR | --worktree] [--tools a,b] [--idempotency-key K] [--json]`: prints the child id (stdout) and what was forked (stderr).
 * `dsh fork FILE --at REF`: the native fork of a Claude Code, Codex or pi file (also given by its
 * session id, found in the tool's folders, when no dsh session has that id).
 */
export async function forkCommand(context: CliContext, values: OptionValues, ref: string): Promise<number> {
  // An argument naming an existing path is a Claude Code, Codex or pi session file (SPEC §18).
  if (await pathExists(resolve(context.cwd, ref))) return (await import('./native-fork-command.js')).nativeForkCommand(context, values, ref);
  // A Claude Code, Codex or pi session id that names no dsh session: that tool's file, forked in place.
  const native = await nativeFileUnlessStored(context, values, ref);
  if (native !== undefined) return (await import('./native-fork-command.js')).nativeForkCommand(context, values, native.file);
  for (const option of ['format', 'session-id', 'max-bytes']) {
    if (values[option] !== undefined) throw new CliError('USAGE', `--${option} applies to a session FILE; ${ref} is no file here, so it was read as a dsh session id or name.`);
  }
  const atSeq = typeof values.at === 'string' ? parseSeq('--at', values.at) : undefined;
  if (values.worktree === true && typeof values.cwd === 'string') throw new CliError('USAGE', "--worktree and --cwd both choose the child's directory: use one of them.");
  const patch: SessionConfig = {};
  if (typeof values.cwd === 'string') patch.cwd = resolve(context.cwd, values.cwd);
  if (typeof values.tools === 'string') patch.tools = parseTools(values.tools);
  const { result, warning } = await withHost(context, values, async (host) => {
    let title = typeof values.name === 'string' ? values.name : undefined;
    let worktree: string | undefined;
    if (values.worktree === true) {
      const made = await forkWorktree(context, values, host, ref);
      ({ name: title } = made);
      patch.cwd = made.cwd;
      worktree = made.name;
    }
    let forked;
    try {
      forked = await host.fork(ref, {
        ...(atSeq === undefined ? {} : { atSeq }),
        ...(title === undefined ? {} : { title }),
        ...(Object.keys(patch).length === 0 ? {} : { configPatch: patch }),
        ...(typeof values['idempotency-key'] === 'string' ? { idempotencyKey: values['idempotency-key'] } : {}),
      });
    } catch (error) {
      if (worktree !== undefined) await removeWorktree(resolveDataDir(context, values.data), worktree, true).catch(() => undefined);
      throw error;
    }
    const cwd = (await host.observe(forked.sessionId)).cwd;
    return { result: forked, warning: cwd === undefined ? undefined : await sharedCwdWarning(host, [forked.sessionId], cwd) };
  });
  if (warning !== undefined) context.stderr.write(warning);
  if (values.json === true) {
    context.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  }
  context.stdout.write(`${result.sessionId}\n`);
  context.stderr.write(
    `dsh: forked ${result.parentSession} at seq ${result.forkCut} (${result.inheritedEventCount} events inherited); continue it with dsh -p "…" --resume ${result.sessionId}${storeArguments(context, values)}\n`,
  );
  return 0;
}
