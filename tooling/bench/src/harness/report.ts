import type { Figure } from './figure.js';
import type { MachineInfo } from './machine-info.js';

/** A plain table for facts that are not ratios (e.g. what each peer can do). */
export interface FactTable {
  readonly caption: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** The results of one workload. */
export interface Section {
  readonly title: string;
  /** Markdown: what was measured and against which baseline. */
  readonly method: string;
  readonly figures: readonly Figure[];
  readonly tables?: readonly FactTable[];
  /** Markdown bullets: observations, caveats, what could not be measured. */
  readonly notes?: readonly string[];
}

/** Everything `docs/benchmarks.md` is written from. */
export interface Report {
  readonly machine: MachineInfo;
  readonly versions: Readonly<Record<string, string>>;
  readonly quick: boolean;
  readonly runs: number;
  readonly seconds: number;
  readonly sections: readonly Section[];
}
