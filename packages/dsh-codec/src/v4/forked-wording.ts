/**
 * The wording of V3 issues about a fork closer, reworded for the forked record the user wrote:
 * V4 checks a closer by showing the frozen V3 checker its interrupted mirror (`interrupted-view.ts`),
 * so V3's words name the interrupted closer. Frozen with V4 (V5 reuses it).
 */
import { INTERRUPTED_RESULT_PREFIX } from '../v3/interrupted-results.js';
import { FORKED_RESULT_PREFIX } from './forked-results.js';

/** What follows the cause in every synthetic result id (SPEC §4: `<cause>-tool-result-<callId>-<seq>`). */
const RESULT_ID_TAIL = '-tool-result-';

/** The cause a closer's reserved id prefix names: `interrupted` (V3's table), `forked` (V4's). */
function causeOf(prefix: string): string {
  if (!prefix.endsWith(RESULT_ID_TAIL)) throw new Error(`not a synthetic result id prefix: ${prefix}`);
  return prefix.slice(0, -RESULT_ID_TAIL.length);
}

/** The cause word V3's issues say, and the one V4's say in its place. */
export const INTERRUPTED_CAUSE = causeOf(INTERRUPTED_RESULT_PREFIX);
export const FORKED_CAUSE = causeOf(FORKED_RESULT_PREFIX);

/**
 * Rewords a V3 issue about a mapped closer. About a closer, V3 says its cause word in two phrases
 * only: the reserved id prefix (the expected id, its `<callId>-<seq>` pattern and the viewed id,
 * which is the written forked id under the interrupted prefix) and "the canonical interrupted
 * <kind> wording"; each names the forked closer once the cause word is the forked one. Frozen with
 * V4: every occurrence of the word is rewritten, so a quoted value of the record that holds it is
 * reworded too (a call id `"interrupted-1"` is quoted as `"forked-1"`); `forked-wording.test.ts`
 * enumerates the messages and pins this.
 */
export function forkedWording(message: string): string {
  return message.split(INTERRUPTED_CAUSE).join(FORKED_CAUSE);
}
