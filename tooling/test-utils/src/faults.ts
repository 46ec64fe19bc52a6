/**
 * The conventions of the fault-injection suites (`*.faults.test.ts`, run by `pnpm test:faults`):
 * how many trials to run, and one `faults: <name> key=value…` line per suite that the runner sums.
 */

/** `full` when `DSH_FAULTS_SCALE=full`, else `bounded` (the form the normal test run uses). */
export function faultsScale(): 'bounded' | 'full' {
  return process.env.DSH_FAULTS_SCALE === 'full' ? 'full' : 'bounded';
}

/** `bounded` trials normally, `full` under `DSH_FAULTS_SCALE=full`. */
export function faultTrials(bounded: number, full: number): number {
  return faultsScale() === 'full' ? full : bounded;
}

/**
 * The figures a suite reports. Names the runner sums: `trials`, `acknowledged`, `lost`,
 * `halfWritten`, `escapes`, `status5xx`, `unbounded` (a resource that grew past its bound); any
 * other key is printed as is.
 */
export type FaultFigures = Record<string, number | string>;

/** Prints `faults: <name> key=value…` on stdout, where `pnpm test:faults` collects it. */
export function reportFaults(name: string, figures: FaultFigures): void {
  const pairs = Object.entries(figures).map(([key, value]) => `${key}=${String(value)}`);
  process.stdout.write(`faults: ${name} ${pairs.join(' ')}\n`);
}

/** Prints why a fault test cannot run here (the caller then skips it), so a skip is never silent. */
export function printSkip(name: string, reason: string): void {
  process.stdout.write(`faults: ${name} skipped=1 reason=${JSON.stringify(reason)}\n`);
}
