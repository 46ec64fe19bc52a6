/**
 * What a command loads, through the real bin: `dsh --version` and `dsh --help` load neither the
 * codec's schemas nor the readers, and `dsh fork FILE` loads neither the host, its store,
 * PostgreSQL's client, the interactive UI nor the codec's schemas, and `dsh fork ID` neither hono nor
 * dsh-import's readers — a command imports its own modules only when it runs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DshResult, makeTempDir, runDsh, type TempDir } from '@dsh/test-utils';

const RECORDER = fileURLToPath(new URL('__fixtures__/record-loaded-modules.mjs', import.meta.url));

/** Modules of the host and what only it needs: the store, the agent, PostgreSQL, the HTTP server. */
const HOST = /\/(dsh-host|dsh-session|dsh-agent|dsh-postgres|pg|pg-pool|hono|@hono)\//;
/** The interactive UI's modules. */
const INTERACTIVE = /\/apps\/cli\/(src|dist)\/(interactive\/|commands\/interactive-command\.)/;
/** The codec's schemas (its main entry and zod) and dsh-import's readers (its main entry). */
const SCHEMAS = /\/(zod\/|dsh-codec\/(src|dist)\/index\.|dsh-import\/(src|dist)\/index\.)/;
/** dsh-import's import pipeline and text path: what a native fork loads only when the byte path does not make it. */
const PIPELINE =
  /\/dsh-import\/(src|dist)\/(import-transcript|build-sessions|write-events|codex\/read-codex|pi\/read-pi|native\/native-cut|native\/fork-native-transcript)\./;
/** The modules of dsh-import and of dsh-codec: what the native fork itself loads (the CLI's own are its command's). */
const FORK_PACKAGES = /\/(dsh-import|dsh-codec)\/(src|dist)\//;
/**
 * At most this many of them load for `dsh fork FILE` on the byte path at a cut that leaves no call
 * open (55 before the annex, issue 39; 40 with the memory bound; 29 with the closers loaded only for open calls).
 */
const BYTE_PATH_MODULES = 29;
/** dsh's own modules: the CLI's and every workspace package's (not the launcher in bin/, not node_modules). */
const DSH_MODULES = /\/(apps\/cli|packages\/dsh-[a-z-]+)\/(src|dist)\//;
/**
 * At most this many of them load for `dsh fork FILE --at UUID` of a Claude Code file (69 at review
 * e76bf7b, 64 before issue 39 step 2, 49 before the command table loaded per command; 43 measured then):
 * the help text, the usage errors, the `--worktree` form and the other commands' specs load only when used.
 */
const FORK_FILE_MODULES = 45;
/**
 * At most this many of them load for `dsh fork ID` of a stored session: 310 measured once the CLI took the
 * host from `dsh-host/core` (~410 before, with the host's HTTP face and dsh-import's readers).
 */
const FORK_ID_MODULES = 320;
/** The host's HTTP face: hono and dsh-host's http/ folder (`dsh-host/core` loads neither). */
const HOST_HTTP = /\/(hono|@hono)\/|\/dsh-host\/(src|dist)\/http\//;
/** Any module of dsh-import but its error class (`dsh-import/error`). */
const IMPORT_READERS = /\/dsh-import\/(src|dist)\/(?!error\.|import-error\.)/;
/** The other commands' specs, print mode's, and the strings only the help shows (format versions, import formats). */
const OTHER_SPECS =
  /\/(apps\/cli\/(src|dist)\/(command-spec|print-command-spec|serve-command-spec|completion-command-spec|workspace-command-specs|session-command-specs|import-command-spec|migrate-command-spec)|dsh-codec\/(src|dist)\/(format-version|current-format-version)|dsh-import\/(src|dist)\/formats)\./;

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('dsh-loading-');
});
afterEach(async () => {
  await dir.remove();
});

/** Runs `dsh ARGS`, returning its result and the URLs of every module it loaded. */
async function runRecorded(args: string[]): Promise<DshResult & { loaded: string[] }> {
  const record = join(dir.path, 'loaded.txt');
  await writeFile(record, '');
  const result = await runDsh(args, {
    env: { NODE_OPTIONS: `--import=${RECORDER}`, DSH_RECORD_MODULES: record, DSH_HOME: join(dir.path, 'data') },
  });
  return { ...result, loaded: (await readFile(record, 'utf8')).split('\n').filter((url) => url !== '') };
}

/** A Claude Code file of two entries, `u1` then `a1`. */
async function claudeCodeFile(): Promise<string> {
  const file = join(dir.path, 'p1.jsonl');
  const lines = [
    {
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      sessionId: 'p1',
      timestamp: '2026-01-01T00:00:00.000Z',
      message: { role: 'user', content: 'go' },
    },
    {
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      sessionId: 'p1',
      timestamp: '2026-01-01T00:00:01.000Z',
      message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    },
  ];
  await writeFile(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return file;
}

describe('the modules a command loads', () => {
  it('dsh --version and dsh --help load neither the codec schemas nor the readers', async () => {
    for (const args of [['--version'], ['--help'], ['fork', '--help']]) {
      const run = await runRecorded(args);
      expect(run.code, run.stderr).toBe(0);
      expect(
        run.loaded.some((url) => url.includes('/apps/cli/')),
        'the recorder saw the CLI load',
      ).toBe(true);
      expect(
        run.loaded.filter((url) => SCHEMAS.test(url) || HOST.test(url)),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it('dsh --version is answered before the command table and its parser load', async () => {
    const run = await runRecorded(['--version']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^dsh \d+\.\d+\.\d+/);
    expect(
      run.loaded.filter((url) => /\/(command-spec|command-names|parse-command-line|help-text)\.|\/dsh-(codec|import)\//.test(url)),
    ).toEqual([]);
  });

  it('dsh fork FILE --at REF forks the file without loading the host, PostgreSQL, the interactive UI or the codec schemas', async () => {
    const file = await claudeCodeFile();
    const run = await runRecorded(['fork', file, '--at', 'a1', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ parent_session: 'p1' });
    expect(
      run.loaded.some((url) => url.includes('/dsh-import/')),
      'the recorder saw the fork load dsh-import',
    ).toBe(true);
    expect(run.loaded.filter((url) => HOST.test(url) || INTERACTIVE.test(url))).toEqual([]);
    // dsh-import's native-fork entry: neither the codec's schemas nor the import's linking.
    expect(run.loaded.filter((url) => SCHEMAS.test(url) || url.includes('/link-imports.'))).toEqual([]);
  });

  it('dsh fork FILE --at UUID of a Claude Code file loads the byte path alone: neither the import pipeline nor the text path', async () => {
    const run = await runRecorded(['fork', await claudeCodeFile(), '--at', 'a1', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ parent_session: 'p1', cut: 7 });
    expect(run.loaded.filter((url) => PIPELINE.test(url))).toEqual([]);
    const forkModules = run.loaded.filter((url) => FORK_PACKAGES.test(url));
    expect(forkModules.length, forkModules.join('\n')).toBeLessThanOrEqual(BYTE_PATH_MODULES);
    const dshModules = run.loaded.filter((url) => DSH_MODULES.test(url));
    expect(dshModules.length, dshModules.join('\n')).toBeLessThanOrEqual(FORK_FILE_MODULES);
    // The codec's closer texts load only for a cut that leaves calls open (this one leaves none).
    expect(run.loaded.filter((url) => /\/(open-calls|claude-code-closers|synthetic-results)\./.test(url))).toEqual([]);
    // Nor the help text, the usage errors or the `--worktree` form: a command line that parses needs none of them.
    expect(run.loaded.filter((url) => /\/(help-text|usage-errors|closest-name|native-worktree-fork|cli-context)\./.test(url))).toEqual([]);
    // Nor the whole command table: fork's spec alone, through the index of command names.
    expect(run.loaded.filter((url) => OTHER_SPECS.test(url))).toEqual([]);
    expect(run.loaded.filter((url) => /\/(command-names|fork-command-spec)\./.test(url))).toHaveLength(2);
  });

  it("dsh -p and dsh fork ID load neither the host's HTTP face nor dsh-import's readers; the fork neither PostgreSQL's client, print mode nor the --restore and native-file paths", async () => {
    const data = join(dir.path, 'data');
    const made = await runRecorded(['-p', 'hello', '--model', 'keyless', '--output-format', 'json', '--data', data]);
    expect(made.code, made.stderr).toBe(0);
    // Print mode takes the same host entry: no HTTP face, nothing of dsh-import but its error.
    expect(made.loaded.filter((url) => HOST_HTTP.test(url) || IMPORT_READERS.test(url))).toEqual([]);
    const parent = (JSON.parse(made.stdout) as { session_id: string }).session_id;
    const run = await runRecorded(['fork', parent, '--at', '0', '--json', '--data', data]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ parent_session: parent, cut: 0 });
    expect(
      run.loaded.some((url) => url.includes('/dsh-host/')),
      'the recorder saw the fork load the host',
    ).toBe(true);
    // The host's core entry: neither its HTTP face (hono) nor dsh-import beyond its error class.
    expect(run.loaded.filter((url) => HOST_HTTP.test(url) || IMPORT_READERS.test(url))).toEqual([]);
    const dshModules = run.loaded.filter((url) => DSH_MODULES.test(url));
    expect(dshModules.length, dshModules.join('\n')).toBeLessThanOrEqual(FORK_ID_MODULES);
    // The data directory's store needs no database client; a fork without --restore neither print mode nor the restore.
    expect(run.loaded.filter((url) => /\/(dsh-postgres|pg|pg-pool|pg-protocol)\//.test(url))).toEqual([]);
    expect(
      run.loaded.filter((url) =>
        /\/apps\/cli\/(src|dist)\/(commands\/(print-command|restore-command|native-fork-command)|restore-workspace|print-result|claude-stream-lines)\./.test(
          url,
        ),
      ),
    ).toEqual([]);
  });

  it("dsh migrate --help and dsh import --help still name the codec's format version and dsh-import's formats", async () => {
    const migrate = await runRecorded(['migrate', '--help']);
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.stdout).toMatch(/current-format \(V\d+\) JSONL/);
    expect(migrate.loaded.some((url) => /\/dsh-codec\/(src|dist)\/format-version\./.test(url))).toBe(true);
    const imports = await runRecorded(['import', '--help']);
    expect(imports.code, imports.stderr).toBe(0);
    expect(imports.stdout).toContain('auto (default) | claude-code');
    expect(imports.loaded.some((url) => /\/dsh-import\/(src|dist)\/formats\./.test(url))).toBe(true);
  });

  it('dsh fork FILE --at seq:N loads the import pipeline and the text path when it needs them (the byte path does not cut at a seq)', async () => {
    const file = await claudeCodeFile();
    const run = await runRecorded(['fork', file, '--at', 'seq:7', '--json', '--session-id', '0a1b2c3d-0000-4000-8000-000000000001']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ parent_session: 'p1', cut: 7 });
    expect(run.loaded.filter((url) => PIPELINE.test(url)).length).toBeGreaterThanOrEqual(5);
  });
});
