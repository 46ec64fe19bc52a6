/**
 * `pnpm --filter @dsh/demo run start [-- --port N --data DIR --model SPEC --pace MS]`: starts the
 * demo on 127.0.0.1 and prints its URL; Ctrl-C stops it cleanly.
 */
import { resolve } from 'node:path';
import { whenLauncherExits } from 'dsh-host/launcher';
import { DEMO_USAGE, DemoArgsError, parseDemoArgs } from './server/parse-demo-args.js';
import { DEMO_APP_DIR, startDemo } from './server/start-demo.js';

async function main(): Promise<void> {
  let args;
  try {
    args = parseDemoArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof DemoArgsError)) throw error;
    console.error(`dsh demo: ${error.message}\n\n${DEMO_USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (args.help) {
    console.log(DEMO_USAGE);
    return;
  }
  const dataDir = resolve(args.dataDir ?? resolve(DEMO_APP_DIR, '.dsh-data'));
  const databaseUrl = args.databaseUrl ?? process.env.DSH_DATABASE_URL;
  const demo = await startDemo({
    dataDir,
    port: args.port,
    ...(databaseUrl === undefined || databaseUrl === '' ? {} : { databaseUrl }),
    ...(args.model === undefined ? {} : { model: args.model }),
    ...(args.paceMs === undefined ? {} : { paceMs: args.paceMs }),
    ...(args.token === undefined ? {} : { token: args.token }),
    ...(args.maxConnections === undefined ? {} : { maxConnections: args.maxConnections }),
    log: (line) => {
      console.log(line);
    },
  });
  console.log(`dsh demo running at ${demo.url}`);
  console.log(`  data:      ${demo.dataDir}${demo.seeded.length > 0 ? ` (seeded ${String(demo.seeded.length)} recordings)` : ''}`);
  if (demo.oldLayout) console.log(`             old demo layout: sessions are read from ${demo.storeDir}`);
  console.log(`  CLI:       dsh sessions ${demo.cliData}   (the same sessions from a terminal)`);
  console.log(`  workspace: ${demo.workspaceDir} (the tools' working directory)`);
  console.log(`  model:     ${demo.model}`);
  console.log('Press Ctrl-C to stop.');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    demo.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('dsh demo: failed to stop cleanly', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  whenLauncherExits(stop);
}

main().catch((error: unknown) => {
  const busy = (error as { code?: unknown } | null)?.code === 'EADDRINUSE';
  console.error(
    busy
      ? 'dsh demo: could not start: the port is in use; pass --port N (0 picks a free port).'
      : `dsh demo: could not start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
});
