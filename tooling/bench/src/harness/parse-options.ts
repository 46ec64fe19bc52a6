/** The workloads `pnpm bench` can run, in report order. */
export const WORKLOADS = [
  'append',
  'open',
  'fork',
  'host',
  'peers',
  'postgres',
  'import',
  'native-fork',
  'claude-store',
  'fork-peers',
  'checkpoint',
  'scale',
] as const;
export type WorkloadName = (typeof WORKLOADS)[number];

/** Command-line options of `pnpm bench`. */
export interface BenchOptions {
  readonly quick: boolean;
  readonly runs: number;
  readonly only: readonly WorkloadName[];
  /** Write `docs/benchmarks.md` (default: on for a full run, off for `--quick`). */
  readonly write: boolean;
  readonly help: boolean;
}

/** `pnpm bench` usage, printed by `--help` and after a bad option. */
export const USAGE = `usage: pnpm bench [--quick] [--runs N] [--only append,open,fork,host,peers,postgres,import,native-fork,claude-store,fork-peers,checkpoint,scale] [--write | --no-write]
  --quick      fewer repetitions and smaller histories (about a minute); does not write the report unless --write
  --runs N     repetitions per case (default 5, quick 3; 100k-event histories run at most 3)
  --only LIST  run only these workloads
  --write      write docs/benchmarks.md (default for a full run)
  --no-write   print only`;

/** Parses `argv` (without node and script); throws a `RangeError` naming the bad argument. */
export function parseOptions(argv: readonly string[]): BenchOptions {
  let quick = false;
  let runs: number | undefined;
  let only: WorkloadName[] = [...WORKLOADS];
  let write: boolean | undefined;
  let help = false;
  const args = argv.filter((arg) => arg !== '--');
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    const [flag = '', inline] = arg.split('=', 2);
    const value = (): string => {
      if (inline !== undefined) return inline;
      index += 1;
      const next = args[index];
      if (next === undefined) throw new RangeError(`${flag}: expected a value`);
      return next;
    };
    switch (flag) {
      case '--quick':
        quick = true;
        break;
      case '--runs': {
        const text = value();
        const parsed = Number(text);
        if (!Number.isInteger(parsed) || parsed < 1 || parsed > 100)
          throw new RangeError(`--runs: expected an integer 1–100, received "${text}"`);
        runs = parsed;
        break;
      }
      case '--only':
        only = value()
          .split(',')
          .map((name) => {
            const known = WORKLOADS.find((workload) => workload === name.trim());
            if (!known) throw new RangeError(`--only: expected names among ${WORKLOADS.join(', ')}, received "${name}"`);
            return known;
          });
        break;
      case '--write':
        write = true;
        break;
      case '--no-write':
        write = false;
        break;
      case '--help':
      case '-h':
        help = true;
        break;
      default:
        throw new RangeError(`unknown argument "${arg}"`);
    }
  }
  return { quick, runs: runs ?? (quick ? 3 : 5), only, write: write ?? !quick, help };
}
