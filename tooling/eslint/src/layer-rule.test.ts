import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '@dsh/test-utils';
import { layerRule } from './layer-rule.js';

const root = '/repo';
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

describe('dsh/layers', () => {
  it('accepts downward imports and rejects upward, into-src and escaping ones', () => {
    tester.run('layers', layerRule, {
      valid: [
        { filename: `${root}/packages/dsh-session/src/store.ts`, code: "import { decodeJsonl } from 'dsh-codec';", options: [{ root }] },
        { filename: `${root}/packages/dsh-host/src/host.ts`, code: "import { Session } from 'dsh-session';", options: [{ root }] },
        {
          filename: `${root}/packages/dsh-host/src/fork.ts`,
          code: "import { buildForkSeed } from 'dsh-session/fork';",
          options: [{ root }],
        },
        { filename: `${root}/apps/cli/src/main.ts`, code: "import { validate } from 'dsh-codec';", options: [{ root }] },
        {
          filename: `${root}/packages/dsh-session/src/a.test.ts`,
          code: "import { makeTempDir } from '@dsh/test-utils';",
          options: [{ root }],
        },
        {
          filename: `${root}/packages/dsh-session/src/fork.test.ts`,
          code: "import { buildForkSeed } from './fork.js';",
          options: [{ root }],
        },
        { filename: `${root}/packages/dsh-codec/src/a.ts`, code: "import { z } from 'zod';", options: [{ root }] },
        {
          filename: `${root}/packages/dsh-claude-agent-sdk/src/a.test.ts`,
          code: "import { openPostgresStore } from 'dsh-postgres';",
          options: [{ root }],
        },
        {
          filename: `${root}/packages/dsh-postgres/src/lease/lease-holder.ts`,
          code: "import { currentProcess } from 'dsh-session/internal';",
          options: [{ root }],
        },
        {
          filename: `${root}/packages/dsh-session/src/store/a.test.ts`,
          code: "import { currentProcess } from '../internal.js';",
          options: [{ root }],
        },
        {
          filename: `${root}/packages/dsh-session/test/a.test.ts`,
          code: "import { currentProcess } from 'dsh-session/internal';",
          options: [{ root }],
        },
      ],
      invalid: [
        {
          filename: `${root}/packages/dsh-codec/src/a.ts`,
          code: "import { Session } from 'dsh-session';",
          options: [{ root }],
          errors: [{ messageId: 'upward' }],
        },
        {
          filename: `${root}/packages/dsh-session/src/a.ts`,
          code: "import { createHost } from 'dsh-host';",
          options: [{ root }],
          errors: [{ messageId: 'upward' }],
        },
        {
          filename: `${root}/apps/demo/src/a.ts`,
          code: "import { Session } from 'dsh-session';",
          options: [{ root }],
          errors: [{ messageId: 'upward' }],
        },
        {
          filename: `${root}/packages/dsh-agent/src/a.ts`,
          code: "export * from 'dsh-host';",
          options: [{ root }],
          errors: [{ messageId: 'upward' }],
        },
        {
          filename: `${root}/packages/dsh-agent/src/a.ts`,
          code: "const m = import('dsh-host');",
          options: [{ root }],
          errors: [{ messageId: 'upward' }],
        },
        {
          filename: `${root}/packages/dsh-host/src/a.ts`,
          code: "import { x } from 'dsh-session/src/session.js';",
          options: [{ root }],
          errors: [{ messageId: 'intoSrc' }],
        },
        {
          filename: `${root}/packages/dsh-host/src/a.ts`,
          code: "import { x } from '../../dsh-session/src/session.js';",
          options: [{ root }],
          errors: [{ messageId: 'outside' }],
        },
        {
          filename: `${root}/packages/dsh-session/src/index.ts`,
          code: "export { buildForkSeed } from './fork.js';",
          options: [{ root }],
          errors: [{ messageId: 'forkEntry' }],
        },
        {
          filename: `${root}/packages/dsh-session/src/store/fork-session.ts`,
          code: "import { buildForkSeed } from '../fork.js';",
          options: [{ root }],
          errors: [{ messageId: 'forkEntry' }],
        },
        {
          filename: `${root}/packages/dsh-session/src/a.ts`,
          code: "import { makeTempDir } from '@dsh/test-utils';",
          options: [{ root }],
          errors: [{ messageId: 'tooling' }],
        },
        // dsh-session/internal: dsh-postgres only (and dsh-session's tests), never a user of the store.
        {
          filename: `${root}/packages/dsh-host/src/a.ts`,
          code: "import { currentProcess } from 'dsh-session/internal';",
          options: [{ root }],
          errors: [{ messageId: 'internalEntry' }],
        },
        {
          filename: `${root}/packages/dsh-agent/src/a.test.ts`,
          code: "import { currentProcess } from 'dsh-session/internal';",
          options: [{ root }],
          errors: [{ messageId: 'internalEntry' }],
        },
        {
          filename: `${root}/apps/cli/src/a.ts`,
          code: "export { currentProcess } from 'dsh-session/internal';",
          options: [{ root }],
          errors: [{ messageId: 'internalEntry' }],
        },
        {
          filename: `${root}/packages/dsh-session/src/index.ts`,
          code: "export { currentProcess } from './internal.js';",
          options: [{ root }],
          errors: [{ messageId: 'internalEntry' }],
        },
        {
          filename: `${root}/packages/dsh-session/src/store/a.ts`,
          code: "import { currentProcess } from 'dsh-session/internal';",
          options: [{ root }],
          errors: [{ messageId: 'internalEntry' }],
        },
        // A test-only import stays out of the package's own files.
        {
          filename: `${root}/packages/dsh-claude-agent-sdk/src/a.ts`,
          code: "import { openPostgresStore } from 'dsh-postgres';",
          options: [{ root }],
          errors: [{ messageId: 'upward' }],
        },
      ],
    });
  });

  it('fails the repository lint on a wrong-way import', async () => {
    const dir = await makeTempDir();
    try {
      // A throwaway tree shaped like the repo, linted with the repo's real config.
      const file = join(dir.path, 'packages/dsh-codec/src/bad.js');
      await mkdir(join(dir.path, 'packages/dsh-codec/src'), { recursive: true });
      await writeFile(file, "import { openSessionStore } from 'dsh-session';\nexport { openSessionStore };\n");
      const { dshConfig } = (await import('./index.js')) as { dshConfig: (o: { root: string }) => unknown };
      const eslint = new ESLint({
        cwd: dir.path,
        overrideConfigFile: true,
        overrideConfig: dshConfig({ root: dir.path }) as never,
      });
      const [result] = await eslint.lintFiles([file]);
      expect(result?.messages.map((m) => m.ruleId)).toContain('dsh/layers');
    } finally {
      await dir.remove();
    }
  });
});
