// `npm run dsh -- …` and `pnpm dsh …` from a clone: the CLI from source, run in the directory the user
// called it from (npm and pnpm name it INIT_CWD and start scripts in the checkout), so relative paths,
// --continue and `dsh peers --worktree` mean the user's directory, never dsh's own checkout (SPEC §25).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chdir, env, exit, stderr } from 'node:process';

if (!existsSync(fileURLToPath(import.meta.resolve('../node_modules/tsx/package.json')))) {
  stderr.write('dsh: the checkout has no dependencies installed yet: run `npm run install-cli` (or `npm run demo`) once first.\n');
  exit(1);
}
if (env.INIT_CWD !== undefined && env.INIT_CWD !== '') chdir(env.INIT_CWD);
await import('../apps/cli/bin/dsh.js');
