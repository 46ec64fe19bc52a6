#!/usr/bin/env node
// Runs the dsh CLI from its TypeScript source, no build needed: re-executes Node with the
// `@dsh/source` export condition (workspace packages resolve to `src/`) and tsx as the loader.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const loader = import.meta.resolve('tsx');
const child = spawn(process.execPath, ['--conditions=@dsh/source', '--import', loader, main, ...process.argv.slice(2)], {
  stdio: 'inherit',
});

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    child.kill(signal);
  });
}
child.on('exit', (code, signal) => {
  if (signal !== null) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
