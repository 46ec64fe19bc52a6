/** The demo's vitest project; browser assertions poll for up to 15 s. */
import { defineDshProject } from '@dsh/test-utils/vitest';

// Browser tests poll the page; on a loaded 2-core CI machine the default 1 s poll is too tight.
export default defineDshProject(import.meta.dirname, { expect: { poll: { timeout: 15_000, interval: 100 } } });
