/**
 * @module A status line on stderr for long reads (`validate`, `migrate`, `import`): redrawn in place at
 * most a few times a second, and only when stderr is a terminal — piped or captured stderr stays clean.
 */
import type { CliContext } from './cli-context.js';
import { terminalLine } from './terminal-text.js';

/** One status line: `update` redraws it (throttled), `done` erases it. */
export type ProgressLine = { update(text: string, force?: boolean): void; done(): void };

const QUIET: ProgressLine = { update: () => undefined, done: () => undefined };
const INTERVAL_MS = 200;

/** A status line on `context.stderr` when it is a terminal; otherwise one that prints nothing. */
export function progressLine(context: CliContext, now: () => number = Date.now): ProgressLine {
  if ((context.stderr as { isTTY?: boolean }).isTTY !== true) return QUIET;
  let last = -Infinity;
  let shown = false;
  return {
    update(text, force = false) {
      const time = now();
      if (!force && time - last < INTERVAL_MS) return;
      last = time;
      shown = true;
      // \r and "erase to end of line": the line is redrawn in place; a file name in it is shown, never obeyed.
      context.stderr.write(`\r${terminalLine(text)}\u001B[K`);
    },
    done() {
      if (shown) context.stderr.write('\r\u001B[K');
      shown = false;
    },
  };
}

/** A byte count for people: `512 B`, `3.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${String(bytes)} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
