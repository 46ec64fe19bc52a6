/**
 * The demo on PostgreSQL (`--database-url`, SPEC §14): a turn and a "Fork here" through the real page
 * land in the database, and a second demo process on the same database shows them.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import pg from 'pg';
import { openPostgresStore } from 'dsh-postgres';
import { postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';
import { api, openBrowser, startDemoProcess, type BrowserPage } from './demo-harness.js';

type Listed = { id: string; parentSession?: string };
const url = postgresTestUrl();

describe.skipIf(url === undefined)('the demo with --database-url', () => {
  const schema = uniqueSchemaName('demo');
  const database = new URL(url ?? 'postgres://unset');
  database.searchParams.set('schema', schema);
  let browser: BrowserPage;
  beforeAll(async () => {
    browser = await openBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  test('a turn and a fork made in the page are stored in the database, and another demo process lists them', async () => {
    const first = await startDemoProcess({ paceMs: 0, args: ['--database-url', database.toString()] });
    let parentId: string;
    let childId: string;
    try {
      const { page } = browser;
      await page.goto(first.url);
      await page.getByRole('textbox', { name: 'Message or command' }).fill('hello');
      await page.getByRole('button', { name: 'Send' }).click();
      const transcript = page.getByRole('list', { name: 'Transcript' });
      await expect.poll(() => transcript.innerText(), { timeout: 30_000 }).toContain('Turn 1 completed');
      parentId = decodeURIComponent(/#\/s\/(.+)$/.exec(page.url())?.[1] ?? '');
      expect(parentId).not.toBe('');
      await page.getByRole('button', { name: 'Inspect event 2' }).click();
      await page.getByRole('complementary', { name: 'Inspector' }).getByRole('button', { name: 'Fork here' }).click();
      await expect.poll(() => page.url()).not.toContain(parentId);
      childId = decodeURIComponent(/#\/s\/(.+)$/.exec(page.url())?.[1] ?? '');
      // Nothing went to the JSONL directory the demo would use without a database.
      const jsonl = await readdir(join(first.dataDir, 'sessions')).then(
        (names) => names.filter((name) => name.endsWith('.jsonl')),
        () => [],
      );
      expect(jsonl).toEqual([]);
      expect(browser.errors).toEqual([]);
    } finally {
      await first.stop();
    }

    // Straight from the database: the child inherits the parent's exact prefix through seq 2.
    const store = await openPostgresStore({ connectionString: url ?? '', schema });
    try {
      const parent = await store.observe(parentId);
      const child = await store.observe(childId);
      expect(child.header).toMatchObject({ parentSession: parentId, forkCut: 2, inheritedEventCount: 3 });
      expect(child.events.slice(0, 3)).toEqual(parent.events.slice(0, 3));
      expect(child.events[3]).toMatchObject({ type: 'session/end-seed', data: { inherited: true } });
    } finally {
      await store.close();
    }

    const second = await startDemoProcess({ paceMs: 0, args: ['--database-url', database.toString()] });
    try {
      const listed = (await api<{ sessions: Listed[] }>(second.url, '/api/sessions')).sessions;
      expect(listed.find((item) => item.id === childId)).toMatchObject({ parentSession: parentId });
      expect(listed.some((item) => item.id === parentId)).toBe(true);
    } finally {
      await second.stop();
    }
  }, 180_000);
});
