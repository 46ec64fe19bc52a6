/** The CLI's vitest project (the workspace defaults of `defineDshProject`). */
import { defineDshProject } from '@dsh/test-utils/vitest';

export default defineDshProject(import.meta.dirname);
