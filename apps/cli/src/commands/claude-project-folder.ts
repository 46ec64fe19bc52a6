/**
 * Where Claude Code keeps a project's sessions: `<config dir>/projects/<name>/`, `<name>` derived from
 * the directory Claude Code ran in. The rule, as Claude Code applies it (its `sanitizePath`, confirmed
 * by the tools that read these folders and by the real transcripts' `cwd` fields):
 * every UTF-16 code unit that is not an ASCII letter or digit becomes `-`; a name longer than 200
 * characters keeps its first 200 and gets `-<hash of the original path>` appended. The hash differs
 * between Claude Code builds (a JavaScript string hash under Node, `Bun.hash` in the native binary),
 * so a long name is found by its 200-character prefix and confirmed by the sessions' own `cwd`.
 */
import { readdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';

const MAX_NAME = 200;

/** Claude Code's folder name for `dir` (the Node build's, for a path whose name exceeds 200 characters). */
export function claudeProjectDirName(dir: string): string {
  const name = dir.replace(/[^a-zA-Z0-9]/g, '-');
  if (name.length <= MAX_NAME) return name;
  let hash = 0;
  for (let index = 0; index < dir.length; index++) hash = ((hash << 5) - hash + dir.charCodeAt(index)) | 0;
  return `${name.slice(0, MAX_NAME)}-${Math.abs(hash).toString(36)}`;
}

/**
 * The directory as Claude Code saw it: its working directory is the physical path (symlinks
 * resolved, as `process.cwd()` reports it), so a symlinked `--project` is resolved too.
 */
export async function physicalPath(dir: string): Promise<string> {
  try {
    return await realpath(dir);
  } catch {
    return dir;
  }
}

/**
 * The folder of `project`'s sessions under `projectsDir`, or undefined when there is none: the exact
 * name; for a name over 200 characters, else the folders sharing its 200-character prefix whose
 * session files record `project` as their `cwd` (the first such folder in name order).
 */
export async function findClaudeProjectFolder(projectsDir: string, project: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = (await readdir(projectsDir)).sort();
  } catch {
    return undefined;
  }
  const exact = claudeProjectDirName(project);
  if (names.includes(exact)) return join(projectsDir, exact);
  const full = project.replace(/[^a-zA-Z0-9]/g, '-');
  if (full.length <= MAX_NAME) return undefined;
  const prefix = `${full.slice(0, MAX_NAME)}-`;
  const cwdField = `"cwd":${JSON.stringify(project)}`;
  for (const name of names.filter((candidate) => candidate.startsWith(prefix))) {
    const folder = join(projectsDir, name);
    const files = (await readdir(folder).catch(() => [])).filter((file) => file.endsWith('.jsonl'));
    for (const file of files) {
      const text = await readFile(join(folder, file), 'utf8').catch(() => '');
      if (text.includes(cwdField)) return folder;
    }
  }
  return undefined;
}
