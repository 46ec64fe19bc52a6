/**
 * A vitest reporter that prints the slowest tests of a run with their times, after the default
 * reporter's summary. `npm run check` uses it so every run documents where its time goes — and which
 * tests to look at first when a loaded machine makes a run slow (ISSUE: no verdict may depend on a
 * timeout close to a test's normal running time).
 * Plain JS because vitest loads its config with Node, which cannot import `.ts` from a linked package.
 */
import process from 'node:process';

/** How many of the slowest tests are printed. */
const SHOWN = 20;

export class SlowestTestsReporter {
  /** @param {{ count?: number; out?: (text: string) => void }} [options] */
  constructor(options = {}) {
    this.count = options.count ?? SHOWN;
    this.out = options.out ?? ((text) => process.stdout.write(text));
  }

  /** @param {ReadonlyArray<import('vitest/node').TestModule>} testModules */
  onTestRunEnd(testModules) {
    const rows = [];
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const diagnostic = test.diagnostic();
        if (diagnostic === undefined) continue;
        rows.push({ ms: diagnostic.duration, file: testModule.relativeModuleId, name: test.fullName, state: test.result().state });
      }
    }
    if (rows.length === 0) return;
    rows.sort((a, b) => b.ms - a.ms);
    const lines = rows
      .slice(0, this.count)
      .map(
        (row) =>
          `  ${(row.ms / 1000).toFixed(1).padStart(6)} s  ${row.state === 'passed' ? '' : `[${row.state}] `}${row.file} > ${row.name}`,
      );
    this.out(`\nslowest ${lines.length} of ${rows.length} tests:\n${lines.join('\n')}\n`);
  }
}
