import { defineDshProject } from '@dsh/test-utils/vitest';

// A first run installs the pinned tools (hundreds of MB) inside beforeAll: no hook deadline near
// the normal run time may decide a verdict, so the hooks get a wide one.
export default defineDshProject(import.meta.dirname, { hookTimeout: 900_000, testTimeout: 300_000 });
