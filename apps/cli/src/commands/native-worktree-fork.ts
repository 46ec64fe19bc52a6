/**
 * `dsh fork FILE --at UUID --worktree` of a Claude Code file, after the fork: the child written with
 * a new directory holding the files at the cut, and what to run next. Its own module so a plain
 * native fork loads neither the checkpoints nor the data directory.
 * @module
 */
import type { NativeFileFork } from 'dsh-import/native-fork';
import { claudeWorktreeFork } from '../claude-hooks/claude-worktree-fork.js';
import { resolveDataDir, type CliContext } from '../cli-context.js';
import type { OptionValues } from '../parse-command-line.js';
import { shellLineIn } from '../shell-command.js';
import { terminalBody, terminalLine } from '../terminal-text.js';

/** The `--worktree` fork of a Claude Code file: the child in a new directory holding the files at the cut (`claude-worktree-fork.ts`). */
export async function nativeWorktreeFork(context: CliContext, values: OptionValues, fork: NativeFileFork, now: number): Promise<number> {
  const made = await claudeWorktreeFork(context, resolveDataDir(context, values.data), fork, now);
  const command = shellLineIn({ dir: made.dir }, ['claude', '--resume', fork.sessionId]);
  if (values.json === true) {
    const { workspace, warning, file, ...worktree } = made;
    context.stdout.write(
      `${JSON.stringify({ session_id: fork.sessionId, file, format: fork.format, parent_session: fork.parentSessionId ?? null, cut: fork.cut, workspace, worktree, ...(warning === undefined ? {} : { warning }), resume: command })}\n`,
    );
    return 0;
  }
  context.stdout.write(`${terminalLine(fork.sessionId)}\n`);
  if (made.warning !== undefined) context.stderr.write(terminalBody(`dsh: warning: ${made.warning}\n`));
  const where = made.branch === undefined ? made.dir : `${made.dir} (branch ${made.branch})`;
  const what =
    made.checkpoint === undefined
      ? `HEAD in ${where}`
      : `the workspace at the cut (${made.checkpoint.hook_event_name} checkpoint of ${made.checkpoint.tool_use_id}) in ${where}`;
  let text = `dsh: forked claude-code session ${terminalLine(fork.parentSessionId ?? '?')} at ${terminalLine(String(values.at))} (seq ${String(fork.cut)}) into ${terminalLine(made.file)}\n  the child's files are ${terminalLine(what)}\n`;
  for (const entry of made.skipped ?? []) text += `  not in that checkpoint: ${terminalLine(entry.path)} (${entry.reason})\n`;
  context.stderr.write(terminalBody(`${text}  resume it with: ${terminalLine(command)}\n`));
  return 0;
}
