#!/usr/bin/env node
// The `dsh` command, in this one process (no launcher child, so signals and `kill` reach it directly).
// Installed from npm it runs the built JavaScript in dist/. Inside the dsh workspace (src/ present)
// it reads the TypeScript sources instead: tsx is registered in-process and the `@dsh/source` export
// condition makes workspace packages resolve to their src/ too — unless DSH_CLI_BUILT=1 (the check
// sets it after its build phase: every dsh its tests start runs the built code, without tsx's cost).
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import process from 'node:process';
import { URL } from 'node:url';

const source = new URL('../src/main.ts', import.meta.url);
if (existsSync(source) && process.env.DSH_CLI_BUILT !== '1') {
  register('./source-condition.js', import.meta.url);
  const { register: registerTsx } = await import('tsx/esm/api');
  registerTsx();
  await import(source.href);
} else {
  await import('../dist/main.js');
}
