/**
 * Starts the demo: builds the page if needed, seeds the data directory, opens the JSONL store,
 * creates the host with the demo tools and the chosen model, and serves page and API on loopback.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost, demoTools, openSessionStore, resolveModel } from 'dsh-host';
import { openWorkspaceStore, openWorktrees } from 'dsh-workspace';
import { openPostgresStore } from 'dsh-postgres';
import { chooseModel } from './choose-model.js';
import { ensurePageBuilt } from './ensure-page-built.js';
import { pacedModel } from './paced-model.js';
import { seedDataDir } from './seed-data-dir.js';
import { serveDemo } from './serve-demo.js';
import { shellQuote } from './shell-quote.js';

/** Options of `startDemo`; `port` 0 picks a free port. */
export type DemoOptions = {
  dataDir: string;
  /** Keep sessions on this PostgreSQL server instead of `dataDir/sessions` (the workspace stays in `dataDir`). */
  databaseUrl?: string;
  port: number;
  /** Model spec (`keyless`, `openai:NAME`, `scripted:FILE`); default from the environment. */
  model?: string;
  /** Pause before each model call in ms; default 700 for the keyless model, else 0. */
  paceMs?: number;
  /** Bearer token required on the API (default `DSH_TOKEN` from `env`); the served page carries it. */
  token?: string;
  /** Open connections at most (default dsh-host's `createBoundedHttpServer`: half the descriptor limit). */
  maxConnections?: number;
  env?: Readonly<Record<string, string | undefined>>;
  log?: (line: string) => void;
};

/**
 * A running demo. `storeDir` is the JSONL store (`dataDir` itself, or `dataDir/sessions` in the old
 * layout); `cliData` the CLI arguments that reach the same sessions. `close()` stops the server,
 * releases live sessions and closes the store.
 */
export type RunningDemo = {
  url: string;
  dataDir: string;
  storeDir: string;
  oldLayout: boolean;
  cliData: string;
  workspaceDir: string;
  model: string;
  seeded: string[];
  close(): Promise<void>;
};

/** The app's folder (holding `recordings/`, `src/page/` and `dist/`). */
export const DEMO_APP_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** `--database-url` as a command may show it: a URL with a password becomes `"$DSH_DATABASE_URL"`. */
function databaseArgument(url: string): string {
  let password = true;
  try {
    password = new URL(url).password !== '';
  } catch {
    // not a URL the page should echo
  }
  return password ? '--database-url "$DSH_DATABASE_URL"' : `--database-url ${shellQuote(url)}`;
}

/** Starts the demo on 127.0.0.1. */
export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const log = options.log ?? (() => undefined);
  const env = options.env ?? process.env;
  const distDir = await ensurePageBuilt(DEMO_APP_DIR, log);
  const { sessionsDir, workspaceDir, seeded, oldLayout } = await seedDataDir(options.dataDir, join(DEMO_APP_DIR, 'recordings'));
  const choice = chooseModel(options.model, env);
  const model = pacedModel(
    await resolveModel(choice.spec, { cwd: process.cwd(), env }),
    options.paceMs ?? (choice.spec === 'keyless' ? 700 : 0),
  );
  const store =
    options.databaseUrl === undefined
      ? await openSessionStore({ dir: sessionsDir })
      : await openPostgresStore({ connectionString: options.databaseUrl });
  // SPEC §23: each session's files checkpointed in the data folder, and each child of "Fork here" and
  // the peers form its own directory at the cut (DIR/worktrees/<name>) made by dsh-workspace.
  const checkpoints = openWorkspaceStore({ dir: join(options.dataDir, '.workspaces.git') });
  const worktrees = openWorktrees({ dataDir: options.dataDir, store: checkpoints });
  const host = createHost({ store, model, tools: demoTools(), cwd: workspaceDir, checkpoints, worktrees });
  const cliData = options.databaseUrl === undefined ? `--data ${shellQuote(sessionsDir)}` : databaseArgument(options.databaseUrl);
  let server;
  try {
    const token = options.token ?? (env.DSH_TOKEN === '' ? undefined : env.DSH_TOKEN);
    server = await serveDemo({
      host,
      distDir,
      hostname: '127.0.0.1',
      port: options.port,
      cliData,
      ...(token === undefined ? {} : { token }),
      ...(options.maxConnections === undefined ? {} : { limits: { maxConnections: options.maxConnections } }),
    });
  } catch (error) {
    await host.close();
    await store.close();
    throw error;
  }
  const listening = server;
  return {
    url: listening.url,
    dataDir: options.dataDir,
    storeDir: sessionsDir,
    oldLayout,
    cliData,
    workspaceDir,
    model: `${choice.spec} (${choice.reason})`,
    seeded,
    close: async () => {
      await listening.close();
      await host.close();
      await store.close();
    },
  };
}
