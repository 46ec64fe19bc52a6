/**
 * dsh-postgres as a TypeScript consumer gets it: dsh-codec, dsh-session and dsh-postgres packed
 * (`pnpm pack`: the published package.json, `workspace:*` turned into versions), each with
 * declarations built from its sources into a private folder (the workspace's `dist/` is neither read
 * nor written), installed with pnpm from its store (offline) into an empty folder outside the
 * workspace, where pnpm's layout shows each package only its declared dependencies; then a consumer
 * naming the public types, `pg.Pool` included, is type-checked with `skipLibCheck: false`.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
/** The consumer's packages, each after the ones it depends on. */
const PACKAGES = ['dsh-codec', 'dsh-session', 'dsh-postgres'] as const;
const env = { ...process.env, NODE_OPTIONS: undefined, npm_config_loglevel: 'error' };

let work: TempDir | undefined;
afterAll(async () => {
  await work?.remove();
});

/** Builds `name`'s declarations and JavaScript into `outDir`, resolving its workspace dependencies to the ones built before. */
async function buildInto(name: string, outDir: string, built: Map<string, string>): Promise<void> {
  const dir = join(REPO_ROOT, 'packages', name);
  const paths: Record<string, string[]> = {};
  for (const [dependency, dist] of built) {
    paths[dependency] = [join(dist, 'index.d.ts')];
    paths[`${dependency}/fork`] = [join(dist, 'fork.d.ts')];
    paths[`${dependency}/internal`] = [join(dist, 'internal.d.ts')];
  }
  const config = join(outDir, '..', `tsconfig.${name}.json`);
  await writeFile(
    config,
    JSON.stringify({
      extends: join(dir, 'tsconfig.build.json'),
      // Type libraries (node) from the package's and the workspace's node_modules, not this folder's.
      compilerOptions: {
        rootDir: join(dir, 'src'),
        outDir,
        declarationMap: false,
        sourceMap: false,
        paths,
        typeRoots: [join(dir, 'node_modules/@types'), join(REPO_ROOT, 'node_modules/@types')],
      },
      include: [join(dir, 'src')],
      exclude: [join(dir, 'src/**/*.test.ts'), join(dir, 'src/**/__fixtures__')],
    }),
  );
  await run(process.execPath, [TSC, '-p', config], { cwd: dir, env }).catch((error: unknown) => {
    throw new Error(`building ${name}: ${String((error as { stdout?: string }).stdout)}`, { cause: error });
  });
}

it(
  'type-checks a consumer of the packed packages with skipLibCheck false: pg.Pool and every public type resolve',
  { timeout: 600_000 },
  async () => {
    work = await makeTempDir('dsh-postgres-consumer-');
    const built = new Map<string, string>();
    const installed: Record<string, string> = {};
    for (const name of PACKAGES) {
      const dist = join(work.path, 'build', name);
      await mkdir(dist, { recursive: true });
      await buildInto(name, dist, built);
      built.set(name, dist);
      // The published package.json and files, with the declarations just built as its dist/.
      const packed = join(work.path, 'packed', name);
      await mkdir(packed, { recursive: true });
      await run('pnpm', ['pack', '--pack-destination', packed], { cwd: join(REPO_ROOT, 'packages', name), env });
      const [tarball] = await readdir(packed);
      await run('tar', ['-xzf', join(packed, tarball as string), '-C', packed]);
      await rm(join(packed, 'package', 'dist'), { recursive: true, force: true });
      await cp(dist, join(packed, 'package', 'dist'), { recursive: true });
      installed[name] = `file:${join(packed, 'package')}`;
    }

    const app = join(work.path, 'app');
    await mkdir(app);
    const rootManifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    // A Node project of its own: the three packages (their versions inside each other's manifests
    // mapped to these copies) and @types/node, nothing else.
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({
        name: 'consumer',
        private: true,
        type: 'module',
        dependencies: installed,
        devDependencies: { '@types/node': rootManifest.devDependencies['@types/node'] },
      }),
    );
    await writeFile(
      join(app, 'pnpm-workspace.yaml'),
      `overrides:\n${Object.entries(installed)
        .map(([name, spec]) => `  ${name}: ${JSON.stringify(spec)}\n`)
        .join('')}`,
    );
    await run('pnpm', ['install', '--offline', '--ignore-scripts'], { cwd: app, env });
    await writeFile(
      join(app, 'consumer.ts'),
      [
        "import type { SessionEvent } from 'dsh-codec';",
        "import { openPostgresStore, type PostgresStoreOptions } from 'dsh-postgres';",
        "import type { SessionStore } from 'dsh-session';",
        "type Pool = NonNullable<PostgresStoreOptions['pool']>;",
        'export async function open(pool: Pool): Promise<SessionStore> {',
        "  const store = await openPostgresStore({ pool, schema: 'dsh', hostId: 'consumer' });",
        '  const end: () => Promise<void> = pool.end.bind(pool);',
        '  void end;',
        '  return store;',
        '}',
        'export const seqOf = (event: SessionEvent): number => event.seq;',
      ].join('\n'),
    );
    await writeFile(
      join(app, 'tsconfig.json'),
      // A Node project's settings (TypeScript 6 loads no type library unless `types` names it).
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          types: ['node'],
          skipLibCheck: false,
          noEmit: true,
        },
        include: ['consumer.ts'],
      }),
    );
    const checked = await run(process.execPath, [TSC, '-p', app], { cwd: app, env }).then(
      () => '',
      (error: unknown) => `${String((error as { stdout?: string }).stdout)}${String((error as { stderr?: string }).stderr)}`,
    );
    expect(checked).toBe('');
  },
);
