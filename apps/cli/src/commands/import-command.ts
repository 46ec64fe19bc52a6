import { readdir, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { openSessionStore, type SessionStore } from 'dsh-host';
import { importTranscript, ImportError, type ImportResult } from 'dsh-import';
import type { CliContext } from '../cli-context.js';
import { resolveDataDir } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { claudeProjectDirName, findClaudeProjectFolder, physicalPath } from './claude-project-folder.js';
import type { OptionValues } from '../parse-command-line.js';
import { progressLine } from '../progress-line.js';
import { maxBytesOption, readInputFile } from '../read-input-file.js';

type Imported = { path: string; result: ImportResult };
type Session = ImportResult['sessions'][number];

const FORMATS = ['auto', 'claude-code', 'codex', 'pi'] as const;

/** The Claude Code session files of `project`: `$CLAUDE_CONFIG_DIR` (else `~/.claude`)`/projects/<name>/*.jsonl`. */
async function claudeSessionFiles(context: CliContext, project: string): Promise<string[]> {
  const configDir = context.env.CLAUDE_CONFIG_DIR !== undefined && context.env.CLAUDE_CONFIG_DIR !== '' ? resolve(context.cwd, context.env.CLAUDE_CONFIG_DIR) : join(homedir(), '.claude');
  const projectsDir = join(configDir, 'projects');
  const physical = await physicalPath(project);
  const folder = await findClaudeProjectFolder(projectsDir, physical);
  if (folder === undefined) {
    throw new CliError('NO_CLAUDE_SESSIONS', `No Claude Code sessions for ${physical}: expected the folder ${join(projectsDir, claudeProjectDirName(physical))}, which does not exist.`, {
      hint: 'run it from the project directory Claude Code ran in, or pass --project DIR (CLAUDE_CONFIG_DIR moves ~/.claude)',
    });
  }
  const names = await readdir(folder);
  const files = names.filter((name) => name.endsWith('.jsonl')).sort().map((name) => join(folder, name));
  if (files.length === 0) throw new CliError('NO_CLAUDE_SESSIONS', `No Claude Code sessions for ${physical}: ${folder} holds no .jsonl file.`);
  return files;
}

function withTitle(session: Session, title: string): Session {
  const last = session.events[session.events.length - 1];
  const event = { seq: session.events.length, type: 'session/title', time: last?.time ?? session.header.createdAt, data: { title } };
  return { header: session.header, events: [...session.events, event] };
}

function tree(imported: Imported, skipped: ReadonlySet<string>): string[] {
  const { sessions, format, warnings } = imported.result;
  const lines = [`${imported.path}  (${format}, ${sessions.length} session${sessions.length === 1 ? '' : 's'}${warnings.length === 0 ? '' : `, ${warnings.length} warning${warnings.length === 1 ? '' : 's'}`})`];
  const children = new Map<string, Session[]>();
  for (const session of sessions.slice(1)) {
    const parent = session.header.parentSession ?? '';
    children.set(parent, [...(children.get(parent) ?? []), session]);
  }
  const walk = (session: Session, prefix: string, last: boolean, root: boolean): void => {
    const { id, forkCut } = session.header;
    const note = skipped.has(id) ? '  (already imported, skipped)' : '';
    const what = root ? `${session.events.length} events` : `forked at seq ${String(forkCut)}, ${session.events.length} events`;
    lines.push(`${prefix}${root ? '' : last ? '└─ ' : '├─ '}${id}  ${what}${note}`);
    const kids = children.get(id) ?? [];
    kids.forEach((kid, index) => {
      walk(kid, root ? '  ' : `${prefix}${last ? '   ' : '│  '}`, index === kids.length - 1, false);
    });
  };
  const main = sessions[0];
  if (main !== undefined) walk(main, '  ', true, true);
  return lines;
}

/**
 * `dsh import FILE… [--format F] [--name NAME] [--json] [--max-bytes N]` and `dsh import --from-claude [--project DIR]`:
 * reads every file first (nothing is stored if one is refused), refuses ids the store has
 * (`SESSION_EXISTS`; `--from-claude` skips them instead), stores each session atomically, prints the tree.
 */
export async function importCommand(context: CliContext, values: OptionValues, files: readonly string[]): Promise<number> {
  const fromClaude = values['from-claude'] === true;
  if (fromClaude === (files.length > 0)) {
    throw new CliError('USAGE', fromClaude ? '--from-claude finds the files itself; expected no FILE arguments.' : 'dsh import expects one or more FILEs, or --from-claude.', {
      hint: 'usage: dsh import FILE… [--format F] [--name NAME] | dsh import --from-claude [--project DIR]',
    });
  }
  if (typeof values.project === 'string' && !fromClaude) throw new CliError('USAGE', '--project goes with --from-claude.');
  const format = typeof values.format === 'string' ? values.format : 'auto';
  if (!(FORMATS as readonly string[]).includes(format)) throw new CliError('USAGE', `--format: expected one of ${FORMATS.join(', ')}, received '${format}'.`);
  const name = typeof values.name === 'string' ? values.name : undefined;
  const project = resolve(context.cwd, typeof values.project === 'string' ? values.project : '.');
  const paths = fromClaude ? await claudeSessionFiles(context, project) : files.map((file) => resolve(context.cwd, file));
  if (name !== undefined && paths.length !== 1) throw new CliError('USAGE', `--name names one imported session; received ${paths.length} files.`);

  const maxBytes = maxBytesOption(values['max-bytes']);
  const imported: Imported[] = [];
  const progress = progressLine(context);
  for (const [index, path] of paths.entries()) {
    // NOT_A_FILE / FILE_TOO_LARGE before a byte is read: a FIFO never hangs the import.
    const text = await readInputFile(context, path, maxBytes);
    try {
      progress.update(`importing ${paths.length === 1 ? path : `file ${String(index + 1)} of ${String(paths.length)}: ${path}`}`, true);
      const result = importTranscript(text, { format: format as (typeof FORMATS)[number] });
      if (name !== undefined) result.sessions[0] = withTitle(result.sessions[0] as Session, name);
      imported.push({ path, result });
    } catch (error) {
      if (!ImportError.is(error)) throw error;
      throw new CliError(error.code, `${path}: ${error.message}`, { hint: 'dsh import reads Claude Code, Codex and pi session files; --format F forces one', cause: error });
    } finally {
      progress.done();
    }
  }

  const dataDir = resolveDataDir(context, values.data);
  await mkdir(dataDir, { recursive: true });
  const store: SessionStore = await openSessionStore({ dir: dataDir });
  const skipped = new Set<string>();
  try {
    const taken: string[] = [];
    for (const { result } of imported) for (const session of result.sessions) if (await store.has(session.header.id)) taken.push(session.header.id);
    if (taken.length > 0 && !fromClaude) {
      throw new CliError('SESSION_EXISTS', `Session${taken.length === 1 ? '' : 's'} ${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''} in ${dataDir}; nothing was imported.`, {
        hint: 'it was imported before: see it with `dsh show ID`, or delete it first',
      });
    }
    for (const id of taken) skipped.add(id);
    for (const { result } of imported) {
      for (const session of result.sessions) if (!skipped.has(session.header.id)) await store.import(session);
    }
  } finally {
    await store.close();
  }
  if (values.json === true) {
    const out = imported.map(({ path, result }) => ({
      file: path,
      format: result.format,
      warnings: result.warnings,
      sessions: result.sessions.map((s) => ({ id: s.header.id, parentSession: s.header.parentSession ?? null, forkCut: s.header.forkCut ?? null, events: s.events.length, skipped: skipped.has(s.header.id) })),
    }));
    context.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  for (const entry of imported) {
    context.stdout.write(`${tree(entry, skipped).join('\n')}\n`);
    for (const warning of entry.result.warnings) context.stderr.write(`dsh: warning: ${entry.path}: ${warning}\n`);
  }
  return 0;
}
