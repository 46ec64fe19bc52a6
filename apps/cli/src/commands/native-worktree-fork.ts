/**
 * `dsh fork FILE --at REF --worktree` of a Claude Code, Codex or pi file, after the fork: the child written
 * with a new directory holding the files at the cut (`tool-worktree-fork.ts`, with the tool's format as
 * data: `claude-fork-lines.ts`, `codex-fork-lines.ts`, `pi-fork-lines.ts`), and what to run next (the
 * tool's resume and listing commands, data in the same tables: this module branches on no tool). Its
 * own module so a plain native fork loads neither the checkpoints nor the data directory; each tool's
 * format loads only for its files.
 * @module
 */
import type { NativeFileFork } from 'dsh-import/native-fork';
import { resolveDataDir, type CliContext } from '../cli-context.js';
import type { OptionValues } from '../parse-command-line.js';
import { shellLineIn } from '../shell-command.js';
import { terminalBody, terminalLine } from '../terminal-text.js';
import type { WorktreeForkLines } from '../tool-hooks/tool-worktree-fork.js';

/** Each format's lines, loaded only for its files: everything per tool (format, resume, listing) is in them. */
const FORK_LINES: Readonly<Record<NativeFileFork['format'], () => Promise<WorktreeForkLines>>> = {
  'claude-code': async () => (await import('../tool-hooks/claude-fork-lines.js')).CLAUDE_FORK_LINES,
  codex: async () => (await import('../tool-hooks/codex-fork-lines.js')).CODEX_FORK_LINES,
  pi: async () => (await import('../tool-hooks/pi-fork-lines.js')).PI_FORK_LINES,
};

/** A `--worktree` fork's directory as printed: the files it holds and where. */
function worktreeWhat(made: { dir: string; branch?: string; checkpoint?: { hook_event_name: string; tool_use_id: string } }): string {
  const where = made.branch === undefined ? made.dir : `${made.dir} (branch ${made.branch})`;
  return made.checkpoint === undefined
    ? `HEAD in ${where}`
    : `the workspace at the cut (${made.checkpoint.hook_event_name} checkpoint of ${made.checkpoint.tool_use_id}) in ${where}`;
}

/**
 * The `--worktree` fork of a Claude Code, Codex or pi file (`file`: the parent's path): the child in a new
 * directory holding the files at the cut, and the command that resumes it there (Codex: and the line
 * that has Codex list it).
 */
export async function nativeWorktreeFork(
  context: CliContext,
  values: OptionValues,
  fork: NativeFileFork,
  file: string,
  now: number,
): Promise<number> {
  const dataDir = resolveDataDir(context, values.data);
  const lines = await FORK_LINES[fork.format]();
  const { toolWorktreeFork } = await import('../tool-hooks/tool-worktree-fork.js');
  const made = await toolWorktreeFork(context, dataDir, lines, { fork, parentFile: file, now });
  const command = shellLineIn({ dir: made.dir }, lines.resumeArgv({ sessionId: fork.sessionId, file: made.file }));
  const { listing } = lines;
  const index = await listing?.command(context, made.file, fork.sessionId);
  if (values.json === true) {
    const { workspace, warning, file: child, ...worktree } = made;
    context.stdout.write(
      `${JSON.stringify({ session_id: fork.sessionId, file: child, format: fork.format, parent_session: fork.parentSessionId ?? null, cut: fork.cut, workspace, worktree, ...(warning === undefined ? {} : { warning }), resume: command, ...(index === undefined ? {} : { index: index.argv }) })}\n`,
    );
    return 0;
  }
  context.stdout.write(`${terminalLine(fork.sessionId)}\n`);
  if (made.warning !== undefined) context.stderr.write(terminalBody(`dsh: warning: ${made.warning}\n`));
  let text = `dsh: forked ${fork.format} session ${terminalLine(fork.parentSessionId ?? '?')} at ${terminalLine(String(values.at))} (seq ${String(fork.cut)}) into ${terminalLine(made.file)}\n  the child's files are ${terminalLine(worktreeWhat(made))}\n`;
  for (const entry of made.skipped ?? []) text += `  not in that checkpoint: ${terminalLine(entry.path)} (${entry.reason})\n`;
  text += `  resume it with: ${terminalLine(command)}\n`;
  if (listing !== undefined && index !== undefined) text += `  list it in ${listing.where}: ${terminalLine(index.line)}\n`;
  context.stderr.write(terminalBody(text));
  return 0;
}
