/**
 * @module @dsh/test-utils
 * Shared test helpers: temporary directories that clean themselves up.
 */
export { makeTempDir, type TempDir } from './make-temp-dir.js';
