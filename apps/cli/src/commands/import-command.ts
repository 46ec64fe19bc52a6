/**
 * @module import-command
 * `dsh import`: transcript files, or a project's Claude Code sessions, into the store through
 * dsh-host's `importIntoStore`.
 */
import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { HostError, importIntoStore, type ImportedFile, type ImportedSessionSummary } from 'dsh-host';
import { IMPORT_ERROR_CODES, TRANSCRIPT_FORMATS } from 'dsh-import';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { claudeProjectDirName, findClaudeProjectFolder, physicalPath } from './claude-project-folder.js';
import type { OptionValues } from '../parse-command-line.js';
import { progressLine } from '../progress-line.js';
import { refuseTakenName } from '../refuse-taken-name.js';
import { maxBytesOption, readInputFile } from '../read-input-file.js';
import { openCliStore } from '../with-host.js';
import { terminalLine } from '../terminal-text.js';

const FORMATS = ['auto', ...TRANSCRIPT_FORMATS] as const;
const IMPORT_CODES: ReadonlySet<string> = new Set(Object.keys(IMPORT_ERROR_CODES));

/**
 * The Claude Code session files of `project`: `$CLAUDE_CONFIG_DIR` (else `~/.claude`)`/projects/<name>/*.jsonl`,
 * each followed by its subagents' files (`<session>/subagents/*.jsonl`).
 */
async function claudeSessionFiles(context: CliContext, project: string): Promise<string[]> {
  const configDir =
    context.env.CLAUDE_CONFIG_DIR !== undefined && context.env.CLAUDE_CONFIG_DIR !== ''
      ? resolve(context.cwd, context.env.CLAUDE_CONFIG_DIR)
      : join(homedir(), '.claude');
  const projectsDir = join(configDir, 'projects');
  const physical = await physicalPath(project);
  const folder = await findClaudeProjectFolder(projectsDir, physical);
  if (folder === undefined) {
    throw new CliError(
      'NO_CLAUDE_SESSIONS',
      `No Claude Code sessions for ${physical}: expected the folder ${join(projectsDir, claudeProjectDirName(physical))}, which does not exist.`,
      {
        hint: 'run it from the project directory Claude Code ran in, or pass --project DIR (CLAUDE_CONFIG_DIR moves ~/.claude)',
      },
    );
  }
  const names = await readdir(folder);
  const files: string[] = [];
  for (const name of names.filter((entry) => entry.endsWith('.jsonl')).sort()) {
    files.push(join(folder, name));
    // Subagents of a session: <session>/subagents/agent-<agentId>.jsonl (imported as their own sessions).
    const subagents = join(folder, name.slice(0, -'.jsonl'.length), 'subagents');
    const agents = await readdir(subagents).catch(() => [] as string[]);
    for (const agent of agents.filter((entry) => entry.endsWith('.jsonl')).sort()) files.push(join(subagents, agent));
  }
  if (files.length === 0)
    throw new CliError('NO_CLAUDE_SESSIONS', `No Claude Code sessions for ${physical}: ${folder} holds no .jsonl file.`);
  return files;
}

function tree(file: ImportedFile): string[] {
  const { sessions, format, warnings } = file;
  const lines = [
    `${file.name ?? ''}  (${format}, ${sessions.length} session${sessions.length === 1 ? '' : 's'}${warnings.length === 0 ? '' : `, ${warnings.length} warning${warnings.length === 1 ? '' : 's'}`})`,
  ];
  const ids = new Set(sessions.map((session) => session.id));
  const children = new Map<string, ImportedSessionSummary[]>();
  const roots: ImportedSessionSummary[] = [];
  for (const session of sessions) {
    if (session.parentSession === null || !ids.has(session.parentSession)) roots.push(session);
    else children.set(session.parentSession, [...(children.get(session.parentSession) ?? []), session]);
  }
  const walk = (session: ImportedSessionSummary, prefix: string, last: boolean, root: boolean): void => {
    const { id, forkCut, parentSession } = session;
    const note =
      session.kept === true ? '  (already imported, skipped)' : session.skipped === true ? '  (stored with other events, skipped)' : '';
    const what = root
      ? parentSession === null
        ? `${session.events} events`
        : `forked from ${parentSession} at seq ${String(forkCut)}, ${session.events} events`
      : `forked at seq ${String(forkCut)}, ${session.events} events`;
    lines.push(`${prefix}${root ? '' : last ? '└─ ' : '├─ '}${id}  ${what}${note}`);
    const kids = children.get(id) ?? [];
    kids.forEach((kid, index) => {
      walk(kid, root ? '  ' : `${prefix}${last ? '   ' : '│  '}`, index === kids.length - 1, false);
    });
  };
  for (const root of roots) walk(root, '  ', true, true);
  return lines;
}

/**
 * `dsh import FILE… [--format F] [--name NAME] [--json] [--max-bytes N]` and `dsh import --from-claude [--project DIR]`:
 * through dsh-host's `importIntoStore` (the demo's `POST /api/import` too): every file read first
 * (nothing is stored if one is refused), linked (subagents, Codex forks), each session stored
 * atomically; a file imported before is `SESSION_EXISTS` (`--from-claude` skips it instead). Prints the tree.
 */
export async function importCommand(context: CliContext, values: OptionValues, files: readonly string[]): Promise<number> {
  const fromClaude = values['from-claude'] === true;
  if (fromClaude === files.length > 0) {
    throw new CliError(
      'USAGE',
      fromClaude
        ? '--from-claude finds the files itself; expected no FILE arguments.'
        : 'dsh import expects one or more FILEs, or --from-claude.',
      {
        hint: 'usage: dsh import FILE… [--format F] [--name NAME] | dsh import --from-claude [--project DIR]',
      },
    );
  }
  if (typeof values.project === 'string' && !fromClaude) throw new CliError('USAGE', '--project goes with --from-claude.');
  const format = typeof values.format === 'string' ? values.format : 'auto';
  if (!(FORMATS as readonly string[]).includes(format))
    throw new CliError('USAGE', `--format: expected one of ${FORMATS.join(', ')}, received '${format}'.`);
  const name = typeof values.name === 'string' ? values.name : undefined;
  const project = resolve(context.cwd, typeof values.project === 'string' ? values.project : '.');
  const paths = fromClaude ? await claudeSessionFiles(context, project) : files.map((file) => resolve(context.cwd, file));
  if (name !== undefined && paths.length !== 1)
    throw new CliError('USAGE', `--name names one imported session; received ${paths.length} files.`);

  const maxBytes = maxBytesOption(values['max-bytes']);
  const inputs: { text: string; name: string }[] = [];
  // NOT_A_FILE / FILE_TOO_LARGE before a byte is read: a FIFO never hangs the import.
  for (const path of paths) inputs.push({ text: await readInputFile(context, path, maxBytes), name: path });

  // The command's store: the data directory, or PostgreSQL with --database-url / $DSH_DATABASE_URL.
  const { store } = await openCliStore(context, values);
  let report: ImportedFile[];
  const progress = progressLine(context);
  try {
    if (name !== undefined) await refuseTakenName(store, name);
    progress.update(`importing ${paths.length === 1 ? (paths[0] ?? '') : `${String(paths.length)} files`}`, true);
    // One home for every import (dsh-host's importIntoStore): read all, link, store parents first.
    report = (
      await importIntoStore(store, inputs, {
        format: format as (typeof FORMATS)[number],
        ...(name === undefined ? {} : { title: name }),
        ...(fromClaude ? { skipImported: true } : {}),
        ...(values.strict === true ? { strict: true } : {}),
      })
    ).files;
  } catch (error) {
    if (HostError.is(error) && IMPORT_CODES.has(error.code)) {
      throw new CliError(error.code, error.message, {
        hint: 'dsh import reads Claude Code, Codex and pi session files; --format F forces one',
        cause: error,
      });
    }
    throw error;
  } finally {
    progress.done();
    await store.close();
  }
  if (values.json === true) {
    const out = report.map((file) => ({
      file: file.name ?? null,
      format: file.format,
      warnings: file.warnings,
      sessions: file.sessions.map((s) => ({
        id: s.id,
        parentSession: s.parentSession,
        forkCut: s.forkCut,
        events: s.events,
        skipped: s.kept === true || s.skipped === true,
      })),
    }));
    context.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  for (const file of report) {
    context.stdout.write(`${tree(file).map(terminalLine).join('\n')}\n`);
    for (const warning of file.warnings) context.stderr.write(`dsh: warning: ${terminalLine(`${file.name ?? ''}: ${warning}`)}\n`);
  }
  return 0;
}
