/** What every workload receives from the runner. */
export interface BenchContext {
  /** Fewer repetitions and smaller histories, for a smoke run in about a minute. */
  readonly quick: boolean;
  /** Repetitions per case. */
  readonly runs: number;
  /** A fresh directory on the disk under test; the runner deletes it afterwards. */
  readonly dataDir: string;
  /** Progress output for the terminal (not the report). */
  readonly log: (message: string) => void;
  /** Adds a package and its version to the report's version table. */
  readonly recordVersion: (name: string, version: string) => void;
}
