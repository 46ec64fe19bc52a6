/**
 * @module serve-command
 * `dsh serve`: the host's HTTP API until a signal, or until its `npm run` launcher dies.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { serveHost } from 'dsh-host';
import { whenLauncherExits } from 'dsh-host/launcher';
import { openWorktrees } from 'dsh-workspace';
import { CliError } from '../cli-error.js';
import { resolveDataDir, type CliContext } from '../cli-context.js';
import type { OptionValues } from '../parse-command-line.js';
import { withHost } from '../with-host.js';

const DEFAULT_PORT = 4317;

// `on`, not `once`: a launcher (npm, a terminal's process group) may deliver a signal twice, and a
// second one during shutdown must not kill us with the default handler before leases are released.
function stopRequested(): Promise<string> {
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => {
        resolve(signal);
      });
    }
    whenLauncherExits(() => {
      resolve('its launcher exited');
    });
  });
}

/** The value of `--NAME N` when given: a positive integer, else a usage error naming the flag. */
function positiveIntegerOption(values: OptionValues, name: string): number | undefined {
  const text = values[name];
  if (typeof text !== 'string') return undefined;
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) throw new CliError('USAGE', `--${name} expects a positive integer, received '${text}'.`);
  return Number(text);
}

/** `dsh serve`: serves the HTTP API until SIGINT/SIGTERM, then releases every session. */
export async function serveCommand(context: CliContext, values: OptionValues): Promise<number> {
  const portText = typeof values.port === 'string' ? values.port : String(DEFAULT_PORT);
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65_535)
    throw new CliError('USAGE', `--port expects 0..65535, received '${portText}'.`);
  const maxStreams = positiveIntegerOption(values, 'max-streams');
  const maxConnections = positiveIntegerOption(values, 'max-connections');
  const limits = {
    ...(maxStreams === undefined ? {} : { maxStreams }),
    ...(maxConnections === undefined ? {} : { maxConnections }),
  };
  const maxSessions = positiveIntegerOption(values, 'max-sessions');
  const idleSeconds = positiveIntegerOption(values, 'idle-session-seconds');
  const sessionLimits = {
    ...(maxSessions === undefined ? {} : { maxLiveSessions: maxSessions }),
    ...(idleSeconds === undefined ? {} : { idleSessionMs: idleSeconds * 1000 }),
  };
  const token = typeof values.token === 'string' ? values.token : context.env.DSH_TOKEN;
  const hostname = typeof values.host === 'string' ? values.host : '127.0.0.1';
  const allowedText = typeof values['allowed-host'] === 'string' ? values['allowed-host'] : (context.env.DSH_ALLOWED_HOSTS ?? '');
  const allowedHosts = allowedText
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const workspace = typeof values.workspace === 'string' ? resolve(context.cwd, values.workspace) : undefined;
  if (workspace !== undefined) await mkdir(workspace, { recursive: true });
  return withHost(
    context,
    values,
    async (host, dataDir) => {
      const server = await serveHost(host, {
        hostname,
        port: Number(portText),
        allowedHosts,
        ...limits,
        ...(token === undefined || token === '' ? {} : { token }),
      });
      context.stdout.write(
        `dsh: serving ${server.url} (data ${dataDir}${token === undefined || token === '' ? '' : ', bearer token required'}); Ctrl-C stops\n`,
      );
      const reason = await stopRequested();
      await server.close();
      context.stderr.write(`dsh: stopped (${reason}); sessions released\n`);
      return 0;
    },
    {
      ...sessionLimits,
      ...(workspace === undefined ? {} : { cwd: workspace }),
      // `worktree: true` on POST …/fork and …/peers: each child's own directory under DATA/worktrees (SPEC §23).
      worktrees: openWorktrees({ dataDir: resolveDataDir(context, values.data) }),
    },
  );
}
