// `node --import ./record-loaded-modules.mjs …` with DSH_RECORD_MODULES=FILE: appends the URL of every
// module the process loads to FILE, one a line (the e2e tests that check what a command loads).
import { register } from 'node:module';

register('./record-loaded-modules-hooks.mjs', import.meta.url);
