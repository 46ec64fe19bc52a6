/**
 * The demo command line: `--port N` (default 4777; 0 picks a free port), `--data DIR` (default
 * `apps/demo/.dsh-data`), `--model SPEC` (`keyless`, `openai:NAME`, `scripted:FILE`) and
 * `--pace MS` (a pause before each model call, so a person can watch a turn and branch mid-turn) and
 * `--token TOKEN` (require a bearer token on the API; default `$DSH_TOKEN`) and `--max-connections N`
 * (open connections; default dsh-host's: half the descriptor limit).
 */

export type DemoArgs = {
  port: number;
  dataDir?: string;
  databaseUrl?: string;
  model?: string;
  paceMs?: number;
  token?: string;
  maxConnections?: number;
  help: boolean;
};

/** Usage text printed by `--help` and after a bad argument. */
export const DEMO_USAGE = `Usage: pnpm --filter @dsh/demo run start [-- options]

Options:
  --port N      port on 127.0.0.1 (default 4777; 0 picks a free one)
  --data DIR    data directory, laid out as the CLI's: DIR/<id>.jsonl (the JSONL store, so
                \`dsh --data DIR\` sees the same sessions) and DIR/workspace/ (the tools' cwd);
                seeded with the recordings when missing or empty (default apps/demo/.dsh-data)
  --database-url URL  keep sessions on PostgreSQL instead of DIR (default
                $DSH_DATABASE_URL; the recordings are not seeded there)
  --model SPEC  keyless | openai:NAME | scripted:FILE (default: openai:$OPENAI_MODEL or
                openai:gpt-4o-mini when OPENAI_API_KEY is set, else keyless)
  --pace MS     pause before each model call (default 700 for keyless, 0 otherwise)
  --token T     require Authorization: Bearer T on the API (default $DSH_TOKEN); the served
                page carries it
  --max-connections N  open connections at most (default half the descriptor limit, at most
                4096); one more closes the connection idle longest
  --help        this text`;

/** A bad command line; the message names the argument and what was expected. */
export class DemoArgsError extends Error {
  override readonly name = 'DemoArgsError';
}

function integer(flag: string, raw: string | undefined, max: number): number {
  if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) > max) {
    throw new DemoArgsError(
      `${flag}: expected an integer from 0 to ${max}, received ${raw === undefined ? 'nothing' : JSON.stringify(raw)}`,
    );
  }
  return Number(raw);
}

/** Parses `argv` (without node and the script); accepts `--flag value` and `--flag=value`. */
export function parseDemoArgs(argv: readonly string[]): DemoArgs {
  const args: DemoArgs = { port: 4777, help: false };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    if (arg === '--') continue;
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const value = (): string | undefined => (eq === -1 ? argv[++index] : arg.slice(eq + 1));
    switch (flag) {
      case '--help':
      case '-h':
        args.help = true;
        break;
      case '--port':
        args.port = integer('--port', value(), 65_535);
        break;
      case '--data': {
        const dir = value();
        if (dir === undefined || dir === '') throw new DemoArgsError('--data: expected a directory, received nothing');
        args.dataDir = dir;
        break;
      }
      case '--database-url': {
        const url = value();
        if (url === undefined || url === '')
          throw new DemoArgsError('--database-url: expected postgres://USER@HOST:PORT/DB, received nothing');
        args.databaseUrl = url;
        break;
      }
      case '--model': {
        const spec = value();
        if (spec === undefined || spec === '')
          throw new DemoArgsError('--model: expected keyless, openai:NAME or scripted:FILE, received nothing');
        args.model = spec;
        break;
      }
      case '--token': {
        const token = value();
        if (token === undefined || token === '') throw new DemoArgsError('--token: expected a token, received nothing');
        args.token = token;
        break;
      }
      case '--pace':
        args.paceMs = integer('--pace', value(), 60_000);
        break;
      case '--max-connections': {
        const raw = value();
        const count = integer('--max-connections', raw, 1_000_000);
        if (count < 1) throw new DemoArgsError(`--max-connections: expected an integer from 1 to 1000000, received "${raw ?? ''}"`);
        args.maxConnections = count;
        break;
      }
      default:
        throw new DemoArgsError(
          `unknown argument ${JSON.stringify(arg)}: expected --port, --data, --database-url, --model, --pace, --token, --max-connections or --help`,
        );
    }
  }
  return args;
}
