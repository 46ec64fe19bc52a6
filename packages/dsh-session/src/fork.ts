/**
 * @module dsh-session/fork
 * Exact-event fork seeds (SPEC §5.1). This entry holds one export, the same builder the store's
 * forks use; the main entry never imports this file.
 */
export { buildForkSeed } from './build-fork-seed.js';
