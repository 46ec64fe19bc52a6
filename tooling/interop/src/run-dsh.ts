/** @module Bridge for interop tests written before the one runner moved to `@dsh/test-utils` (import from there). */
export { runDsh } from '@dsh/test-utils';
