/**
 * Test harness for the demo's browser tests: starts the real demo command on a free port with a
 * fresh data directory, and Debian's Chromium through playwright-core (never a downloaded browser).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

/** The demo app's folder. */
export const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
/** Where browser tests keep screenshots (gitignored). */
export const ARTIFACTS_DIR = join(APP_DIR, 'test-artifacts');
/** Debian's Chromium, or `$CHROMIUM_PATH`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A demo server running as its own process, on a data directory of its own. */
export type DemoProcess = { url: string; dataDir: string; output: () => string; stop(): Promise<void> };

/**
 * Runs `src/main.ts` with `--port 0 --data <fresh dir>` and waits (at most 60 s) for the URL it
 * prints. `prepare` may lay the data directory out first (it gets the path, which does not exist yet).
 */
export async function startDemoProcess(options: {
  paceMs: number;
  prepare?: (dataDir: string) => Promise<void>;
  args?: readonly string[];
}): Promise<DemoProcess> {
  const dir: TempDir = await makeTempDir('dsh-demo-e2e-');
  const dataDir = join(dir.path, 'data');
  await options.prepare?.(dataDir);
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--conditions=@dsh/source',
      '--import',
      'tsx',
      'src/main.ts',
      '--port',
      '0',
      '--data',
      dataDir,
      '--pace',
      String(options.paceMs),
      ...(options.args ?? []),
    ],
    { cwd: APP_DIR, env: { ...process.env, OPENAI_API_KEY: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    await dir.remove();
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`demo printed no URL within 60 s; output:\n${output}`));
      }, 60_000);
      const check = () => {
        const match = /running at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout?.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`demo exited with ${code} before printing its URL; output:\n${output}`));
      });
    });
    return { url, dataDir, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A headless Chromium page that records console errors and uncaught page errors. */
export type BrowserPage = { browser: Browser; page: Page; errors: string[]; close(): Promise<void> };

/**
 * Launches Debian's Chromium with the flags of TOOLCHAIN.md and opens one page at `width`×`height`;
 * `options` emulate more of a device (`colorScheme: 'dark'`, `hasTouch`, `isMobile`).
 */
export async function openBrowser(
  viewport = { width: 1280, height: 800 },
  options: Omit<BrowserContextOptions, 'viewport'> = {},
): Promise<BrowserPage> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = await browser.newPage({ ...options, viewport });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  return { browser, page, errors, close: () => browser.close() };
}

/** Saves a screenshot under `apps/demo/test-artifacts/` (gitignored) and returns its path. */
export async function keepScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** JSON from the demo's API, failing the test on a non-2xx answer. */
export async function api<T>(url: string, path: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const response = await fetch(new URL(path, url), {
    method: init?.method ?? 'GET',
    ...(init?.body === undefined ? {} : { body: JSON.stringify(init.body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** The transcript as a person reads it: its rendered text, trailing spaces trimmed, a checkpoint's time (varies by run) as `N ms`. */
export async function transcriptText(page: Page): Promise<string> {
  const text = await page.getByRole('list', { name: 'Transcript' }).innerText();
  return `${text
    .split('\n')
    .map((line) => line.trimEnd().replace(/^(Checkpoint after .*· )\d+ ms$/, '$1N ms'))
    .join('\n')
    .trim()}\n`;
}
