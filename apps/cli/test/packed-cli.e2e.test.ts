/**
 * SPEC §25 — dsh-cli ships no source map of a source it does not ship: `npm pack --dry-run` of the
 * built CLI lists no `.map` whose `sources` are missing from the package (today it ships none at all).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('..', import.meta.url));
const ROOT = join(CLI, '..', '..');
const env = { ...process.env, NODE_OPTIONS: undefined, npm_config_loglevel: 'error' };

describe('the packed dsh-cli (SPEC §25)', () => {
  it('ships no source map pointing at a source the package does not hold', { timeout: 600_000 }, async () => {
    await run('pnpm', ['turbo', 'run', 'build', '--output-logs=errors-only', '--filter=dsh-cli...'], { cwd: ROOT, env });
    const packed = await run('npm', ['pack', '--dry-run', '--json'], { cwd: CLI, env, maxBuffer: 16 * 1024 * 1024 });
    const files = new Set((JSON.parse(packed.stdout) as { files: { path: string }[] }[])[0]?.files.map((file) => file.path) ?? []);
    expect(files.has('dist/main.js')).toBe(true);
    const dangling = [...files]
      .filter((path) => path.endsWith('.map'))
      .flatMap((path) => {
        const map = JSON.parse(readFileSync(join(CLI, path), 'utf8')) as { sources?: string[] };
        return (map.sources ?? []).map((source) => normalize(join(dirname(path), source))).filter((source) => !files.has(source));
      });
    expect(dangling).toEqual([]);
  });
});
