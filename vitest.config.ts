import { defineConfig } from 'vitest/config';
import { SlowestTestsReporter } from './tooling/test-utils/src/slowest-tests-reporter.js';

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tooling/*'],
    // The default report, then the slowest tests with their times: every run documents where its
    // time goes (a loaded machine shows first in these rows).
    reporters: ['default', new SlowestTestsReporter()],
  },
});
