import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { PEERS_DIR } from './peer-paths.js';

const STAMP = join(PEERS_DIR, 'node_modules', '.dsh-bench-installed');

/**
 * Installs the peers into `tooling/bench/peers/node_modules` with `npm ci` from their own lockfile,
 * unless the installed copy already matches it. Native add-ons (better-sqlite3) build from source
 * against the local Node headers: no prebuilt binary is downloaded. Returns seconds spent (0 if cached).
 */
export async function ensurePeersInstalled(log: (message: string) => void): Promise<number> {
  const wanted = createHash('sha256')
    .update(await readFile(join(PEERS_DIR, 'package.json')))
    .update(await readFile(join(PEERS_DIR, 'package-lock.json')))
    .digest('hex');
  const installed = await readFile(STAMP, 'utf8').catch(() => '');
  if (installed.trim() === wanted) return 0;
  log('peers: npm ci into tooling/bench/peers (first run only; builds better-sqlite3 from source, about 2 minutes)');
  const started = performance.now();
  const nodeDir = dirname(dirname(process.execPath));
  await promisify(execFile)('npm', ['ci', '--omit=optional', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: PEERS_DIR,
    env: { ...process.env, npm_config_nodedir: nodeDir, npm_config_build_from_source: 'true' },
    maxBuffer: 16 * 1024 * 1024,
  });
  await writeFile(STAMP, `${wanted}\n`);
  return (performance.now() - started) / 1000;
}
