/**
 * @module with-host
 * The host every command runs on: the store (PostgreSQL or the JSONL data directory), the CLI's
 * tools and model, closed when the command ends.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createHost,
  defaultModelSpec,
  demoTools,
  openSessionStore,
  resolveModel,
  type Host,
  type HostOptions,
  type SessionStore,
} from 'dsh-host/core';
import { openWorkspaceStore } from 'dsh-workspace';
import type { CliContext } from './cli-context.js';
import { resolveDataDir } from './cli-context.js';
import type { OptionValues } from './parse-command-line.js';

/** The tools every CLI host offers; `--tools` narrows them per session. */
export function cliTools() {
  return demoTools();
}

/** The PostgreSQL URL to store sessions in: `--database-url URL`, else `$DSH_DATABASE_URL`; undefined for the JSONL directory. */
export function resolveDatabaseUrl(context: CliContext, flag: string | boolean | string[] | undefined): string | undefined {
  if (typeof flag === 'string' && flag !== '') return flag;
  const url = context.env.DSH_DATABASE_URL;
  return url === undefined || url === '' ? undefined : url;
}

/** A database URL as it may be printed: without its password. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the PostgreSQL server of --database-url';
  }
}

/**
 * The store of a command: PostgreSQL with `--database-url`/`$DSH_DATABASE_URL`, else the data
 * directory's JSONL store (created if missing); `where` names it for messages (no password).
 */
export async function openCliStore(context: CliContext, values: OptionValues): Promise<{ store: SessionStore; where: string }> {
  const databaseUrl = resolveDatabaseUrl(context, values['database-url']);
  // PostgreSQL's client loads only for a database: the data directory's store needs none of it.
  if (databaseUrl !== undefined) {
    const { openPostgresStore } = await import('dsh-postgres');
    return { store: await openPostgresStore({ connectionString: databaseUrl }), where: withoutPassword(databaseUrl) };
  }
  const dataDir = resolveDataDir(context, values.data);
  await mkdir(dataDir, { recursive: true });
  return { store: await openSessionStore({ dir: dataDir }), where: dataDir };
}

/**
 * Runs `use` with a host over the data directory's JSONL store (created if missing) — or PostgreSQL
 * with `--database-url`/`$DSH_DATABASE_URL` — and the `--model` model for sessions that record none, each
 * other session on the model it recorded (plus `extra` host options: a telemetry sink, max steps, a workspace, the live-session bounds, `dsh serve`'s worktree maker), and
 * workspace checkpoints in `DATA/.workspaces.git` unless `--no-checkpoints` (then stored in each session it creates or forks); then releases every session it opened and closes the store, even on failure.
 * `use` gets where the sessions are, for messages, and the store (for what only its summaries say).
 */
export async function withHost<T>(
  context: CliContext,
  values: OptionValues,
  use: (host: Host, dataDir: string, store: SessionStore) => Promise<T>,
  extra: Pick<HostOptions, 'telemetry' | 'maxSteps' | 'cwd' | 'maxLiveSessions' | 'idleSessionMs' | 'worktrees'> = {},
): Promise<T> {
  const spec = typeof values.model === 'string' ? values.model : defaultModelSpec(context.env);
  // A --model that cannot be resolved is refused before anything is opened or written.
  const model = await resolveModel(spec, { cwd: context.cwd, env: context.env });
  const { store, where: dataDir } = await openCliStore(context, values);
  // Each session runs on the model it recorded; `model` answers those that record none (or record it).
  // No `cwd`: a session without a working directory never runs its tools in the process's cwd.
  // Checkpoints of each session's files (SPEC §23) in the data folder, created on the first one. On
  // PostgreSQL too the store is this machine's data folder (another host lacks its objects).
  const checkpoints =
    values['no-checkpoints'] === true
      ? undefined
      : openWorkspaceStore({ dir: join(resolveDataDir(context, values.data), '.workspaces.git') });
  const host = createHost({
    store,
    model,
    tools: cliTools(),
    resolveModel: (recorded) => resolveModel(recorded, { cwd: context.cwd, env: context.env }),
    ...(checkpoints === undefined ? {} : { checkpoints }),
    // Stored too: each session this command creates or forks (interactive, /branch, /fork, peers, serve) records it, so no later resume takes any.
    ...(values['no-checkpoints'] === true ? { noCheckpoints: true } : {}),
    ...extra,
  });
  try {
    return await use(host, dataDir, store);
  } finally {
    try {
      await host.close();
    } finally {
      await store.close();
    }
  }
}
