/**
 * Where `dsh export --format claude-code|codex|pi --out OUT` writes (SPEC §26 Output), and the line
 * that resumes what it wrote:
 * - OUT a tool's session root (`~/.claude/projects`, `$CODEX_HOME/sessions`, `~/.pi/agent/sessions`,
 *   or the one the environment names): into the folder that tool keeps the session's cwd in —
 *   Claude Code `<root>/<cwd as Claude names it>/`, Codex `<root>/YYYY/MM/DD/`, pi `<root>/--<cwd>--/`;
 * - OUT an existing directory, or a path ending in `/`: into it (created when missing);
 * - else OUT is the file.
 * The resume line quotes what needs it, changes into the cwd where Claude Code looks up sessions by
 * folder, and names the tool's home (`CLAUDE_CONFIG_DIR=`, `CODEX_HOME=`) when the root is not the one
 * the environment gives.
 */
import { mkdir, realpath, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { TranscriptFormat } from 'dsh-import';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { nativeSessionsDir, type NativeTool } from '../native-session-files.js';
import { shellLineIn } from '../shell-command.js';
import { claudeProjectDirName, findClaudeProjectFolder, physicalPath } from './claude-project-folder.js';

/** The file to write and the line that resumes it. */
export type NativeExportTarget = { file: string; resumeLine: string };

const TOOL_OF: Record<TranscriptFormat, NativeTool> = { 'claude-code': 'claude', codex: 'codex', pi: 'pi' };
/** Each tool's session root under its default home, and the variable that names the home instead. */
const DEFAULT_ROOT: Record<TranscriptFormat, { tail: readonly string[]; homeVariable?: string }> = {
  'claude-code': { tail: ['.claude', 'projects'], homeVariable: 'CLAUDE_CONFIG_DIR' },
  codex: { tail: ['.codex', 'sessions'], homeVariable: 'CODEX_HOME' },
  pi: { tail: ['.pi', 'agent', 'sessions'] },
};

/** Creates `folder` (and its parents) for the export; a path in the way is `WRITE_FAILED` naming it. */
async function makeFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder, { recursive: true });
  } catch (error) {
    throw new CliError(
      'WRITE_FAILED',
      `Cannot make the folder ${folder} for --out: ${(error as Error).message} (expected a folder or nothing there). Nothing was written.`,
      { hint: 'name a folder, a path that does not exist yet, or a file to write' },
    );
  }
}

async function canonical(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path));
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}

/** pi's folder name for a cwd (its `getDefaultSessionDir`): leading separator dropped, `/`, `\` and `:` as `-`, wrapped in `--`. */
export function piSessionDirName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/** Codex's date folders for a rollout started at `now` (UTC, as the rollout's file name). */
function codexDateFolders(now: number): string[] {
  const iso = new Date(now).toISOString();
  return [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10)];
}

/** Whether `target` is `format`'s session root: the environment's, or one under a default home; and whether the line must name it. */
async function sessionRoot(context: CliContext, format: TranscriptFormat, target: string): Promise<{ nameHome: boolean } | undefined> {
  const own = nativeSessionsDir(context, TOOL_OF[format]);
  if ((await canonical(target)) === (await canonical(own))) return { nameHome: false };
  const tail = DEFAULT_ROOT[format].tail;
  if (target.endsWith(`${sep}${tail.join(sep)}`)) return { nameHome: true };
  return undefined;
}

/**
 * Resolves `out` for an export of `format` named `fileName` for a session whose cwd is `cwd`;
 * creates the folders it names. `resume` is the tool's argv for the written file.
 */
export async function nativeExportTarget(
  context: CliContext,
  options: { out: string; format: TranscriptFormat; fileName: string; cwd: string; now: number; resume: (file: string) => string[] },
): Promise<NativeExportTarget> {
  const { format, fileName, cwd } = options;
  const target = resolve(context.cwd, options.out);
  const root = await sessionRoot(context, format, target);
  if (root !== undefined) {
    const variable = DEFAULT_ROOT[format].homeVariable;
    const env = root.nameHome && variable !== undefined ? { [variable]: dirname(target) } : {};
    let folder: string;
    if (format === 'claude-code') {
      const physical = await physicalPath(cwd);
      folder = (await findClaudeProjectFolder(target, physical)) ?? join(target, claudeProjectDirName(physical));
    } else if (format === 'codex') folder = join(target, ...codexDateFolders(options.now));
    else folder = join(target, piSessionDirName(cwd));
    await makeFolder(folder);
    const file = join(folder, fileName);
    // Claude Code finds a session by the folder of the directory it runs in.
    const dir = format === 'claude-code' ? cwd : undefined;
    return { file, resumeLine: shellLineIn({ ...(dir === undefined ? {} : { dir }), env }, options.resume(file)) };
  }
  const intoFolder = options.out.endsWith('/') || options.out.endsWith(sep) || (await isDirectory(target));
  if (intoFolder) await makeFolder(target);
  const file = intoFolder ? join(target, fileName) : target;
  return { file, resumeLine: shellLineIn({}, options.resume(file)) };
}
