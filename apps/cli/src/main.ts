/**
 * @module @dsh/cli
 * The `dsh` command: print mode shaped like `claude -p`, session management, validate/migrate, serve.
 */
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  // Read when a command reads it: creating the stream costs a start that reads nothing.
  get stdin() {
    return process.stdin;
  },
  env: process.env,
  cwd: process.cwd(),
});
