/** @module Bridge for CLI tests written before the one runner moved to `@dsh/test-utils` (import from there). */
export { DSH_BIN, hintCommand, printJson, runDsh, runPrinted, spawnDsh, type DshOptions, type DshResult } from '@dsh/test-utils';
