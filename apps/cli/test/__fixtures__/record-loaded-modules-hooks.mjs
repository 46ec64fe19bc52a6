// Module hooks for record-loaded-modules.mjs: every module loaded, its URL appended to $DSH_RECORD_MODULES.
import { appendFileSync } from 'node:fs';
import process from 'node:process';

export async function load(url, context, nextLoad) {
  appendFileSync(process.env.DSH_RECORD_MODULES ?? '', `${url}\n`);
  return nextLoad(url, context);
}
