import { defineDshProject } from '@dsh/test-utils/vitest';

export default defineDshProject(import.meta.dirname);
