/**
 * @module fork-session-command
 * `dsh fork ID|NAME`: a dsh session at an exact event (with `--cwd`, `--tools`, `--worktree`), or —
 * when no dsh session has that id — the native fork of the tool's session file of that id.
 */
import { resolve } from 'node:path';
import { CliError } from '../cli-error.js';
import { resolveDataDir, type CliContext } from '../cli-context.js';
import { nativeFileUnlessStored } from '../observe-session-or-file.js';
import type { OptionValues } from '../parse-command-line.js';
import { forkWithOptions, type ForkRequest } from '../fork-with-options.js';
import { forkWorkspaceJson, forkWorkspaceLines } from '../fork-worktree-at-cut.js';
import { storeArguments } from '../store-arguments.js';
import { withHost } from '../with-host.js';
import { parseSeq } from '../parse-seq.js';
import { parseTools } from '../tools-option.js';
import { terminalBody, terminalLine } from '../terminal-text.js';

/**
 * `dsh fork ID|NAME [--at SEQ] [--name N] [--cwd DIR | --worktree | --restore] [--tools a,b] [--no-checkpoints] [--idempotency-key K] [--json]`: prints the child id (stdout) and what was forked (stderr).
 * A Claude Code, Codex or pi session id that names no dsh session is the native fork of that tool's file.
 */
export async function forkSessionCommand(context: CliContext, values: OptionValues, ref: string): Promise<number> {
  // A Claude Code, Codex or pi session id that names no dsh session: that tool's file, forked in place.
  const native = await nativeFileUnlessStored(context, values, ref);
  if (native !== undefined) return (await import('./native-fork-command.js')).nativeForkCommand(context, values, native.file);
  for (const option of ['format', 'session-id', 'max-bytes', 'max-memory']) {
    if (values[option] !== undefined)
      throw new CliError(
        'USAGE',
        `--${option} applies to a session FILE; ${ref} is no file here, so it was read as a dsh session id or name.`,
      );
  }
  const request: ForkRequest = { worktree: values.worktree === true };
  if (typeof values.at === 'string') request.atSeq = parseSeq('--at', values.at);
  if (typeof values.name === 'string') request.title = values.name;
  if (typeof values.cwd === 'string') request.cwd = resolve(context.cwd, values.cwd);
  if (typeof values.tools === 'string') request.tools = parseTools(values.tools);
  if (typeof values['idempotency-key'] === 'string') request.idempotencyKey = values['idempotency-key'];
  const restore = values.restore === true;
  if (restore && (request.worktree || request.cwd !== undefined))
    throw new CliError(
      'USAGE',
      "--restore keeps the parent's directory and sets its files to the cut: it cannot go with --worktree or --cwd.",
    );
  if (values['no-checkpoints'] === true) request.checkpoints = false;
  if (restore && values['no-checkpoints'] === true)
    throw new CliError('USAGE', '--restore takes a checkpoint of the files it changes (the undo): it cannot go with --no-checkpoints.');
  const dataDir = resolveDataDir(context, values.data);
  const { result, warning, workspace, restored } = await withHost(context, values, async (host, _where, store) => {
    const forked = await forkWithOptions(host, dataDir, ref, request);
    if (!restore) return { ...forked, restored: undefined };
    // The child's lease is given back so the restore can take it; its checkpoint of the files now is the child's undo.
    await host.release(forked.result.sessionId);
    const { restoreWorkspace } = await import('../restore-workspace.js');
    return { ...forked, restored: await restoreWorkspace(host, store, dataDir, forked.result.sessionId, forked.result.forkCut) };
  });
  const undo =
    restored === undefined
      ? undefined
      : `dsh restore ${restored.sessionId} --at ${String(restored.undoSeq)}${storeArguments(context, values)}`;
  if (warning !== undefined) context.stderr.write(terminalBody(warning));
  if (values.json === true) {
    // The keys `dsh fork FILE --json` prints (snake_case), with the camelCase ones kept alongside.
    const keys = {
      session_id: result.sessionId,
      file: null,
      format: 'dsh',
      parent_session: result.parentSession,
      cut: result.forkCut,
      resume: ['dsh', '--resume', result.sessionId],
      ...result,
    };
    const json = workspace === undefined ? keys : { ...keys, ...forkWorkspaceJson(workspace) };
    context.stdout.write(`${JSON.stringify(restored === undefined ? json : { ...json, restored: { ...restored, undo } })}\n`);
    if (workspace?.warning !== undefined) context.stderr.write(`dsh: warning: ${terminalLine(workspace.warning)}\n`);
    return 0;
  }
  context.stdout.write(`${terminalLine(result.sessionId)}\n`);
  if (workspace !== undefined) for (const line of forkWorkspaceLines(workspace)) context.stderr.write(`${terminalLine(line)}\n`);
  if (restored !== undefined && undo !== undefined) {
    const { restoreLines } = await import('./restore-command.js');
    for (const line of restoreLines(restored, undo)) context.stderr.write(`${line}\n`);
  }
  context.stderr.write(
    `dsh: forked ${terminalLine(result.parentSession)} at seq ${result.forkCut} (${result.inheritedEventCount} events inherited); continue it with dsh -p "…" --resume ${terminalLine(result.sessionId)}${storeArguments(context, values)}\n`,
  );
  return 0;
}
