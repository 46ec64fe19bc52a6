/**
 * The demo's peers (SPEC §20) in the real browser: "Peers…" on a baseline and "Peers here…" on a
 * selected event fork siblings at one cut over HTTP; the board shows them in columns, each streaming
 * its own transcript, each with its own composer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, keepScreenshot, openBrowser, startDemoProcess, type BrowserPage, type DemoProcess } from './demo-harness.js';

let demo: DemoProcess;
let browser: BrowserPage;
beforeAll(async () => {
  demo = await startDemoProcess({ paceMs: 200 });
  browser = await openBrowser({ width: 1440, height: 900 });
}, 90_000);
afterAll(async () => {
  await browser.close();
  await demo.stop();
});

type Observed = { header: { parentSession?: string; forkCut?: number }; events: { seq: number; type: string }[] };

/** A session named `title` whose first turn ("list files") has completed. */
async function baseline(title: string): Promise<string> {
  const { sessionId } = await api<{ sessionId: string }>(demo.url, '/api/sessions', { method: 'POST', body: { title } });
  await api(demo.url, `/api/sessions/${sessionId}/messages`, { method: 'POST', body: { text: 'list files' } });
  await expect
    .poll(async () => (await api<Observed>(demo.url, `/api/sessions/${sessionId}`)).events.some((event) => event.type === 'turn/end'), {
      timeout: 60_000,
    })
    .toBe(true);
  return sessionId;
}

describe('peers in the demo', () => {
  test('"Peers…" forks siblings of the baseline, shown in columns, each streaming and with its own composer', async () => {
    const { page } = browser;
    const base = await baseline('base');
    await page.goto(`${demo.url}#/s/${base}`);
    await page.getByRole('button', { name: 'Peers…' }).click();
    const form = page.getByRole('form', { name: 'Fork peers' });
    await form.getByLabel('Prompt for peer 1').fill('hello');
    await form.getByLabel('Prompt for peer 2').fill('list files');
    await form.getByLabel('Name of peer 2 (optional)').fill('lister');
    await keepScreenshot(page, 'peers-form');
    await form.getByRole('button', { name: 'Fork and run 2 peers' }).click();

    const board = page.getByRole('main', { name: 'Peers' });
    const first = board.getByRole('region', { name: 'Peer base-1' });
    const second = board.getByRole('region', { name: 'Peer lister' });
    await expect.poll(() => first.getByRole('list', { name: 'Transcript' }).innerText(), { timeout: 60_000 }).toContain('Turn 2 completed');
    await expect
      .poll(() => second.getByRole('list', { name: 'Transcript' }).innerText(), { timeout: 60_000 })
      .toContain('Turn 2 completed');
    expect(await first.innerText()).toContain('keyless offline model');
    expect(await second.innerText()).toContain('tool calls: list_files');

    // Both are siblings at one cut of the baseline.
    const ids = decodeURIComponent(new URL(page.url()).hash).split('/')[3]!.split(',');
    const headers = await Promise.all(ids.map(async (id) => (await api<Observed>(demo.url, `/api/sessions/${id}`)).header));
    const baseEvents = (await api<Observed>(demo.url, `/api/sessions/${base}`)).events;
    const cut = baseEvents.findLast((event) => event.type === 'turn/end')!.seq;
    expect(headers).toEqual([
      expect.objectContaining({ parentSession: base, forkCut: cut }),
      expect.objectContaining({ parentSession: base, forkCut: cut }),
    ]);

    // Each column has its own composer: a message to one peer runs a turn there only.
    await second.getByRole('textbox', { name: 'Message to lister' }).fill('hello');
    await second.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => second.getByRole('list', { name: 'Transcript' }).innerText(), { timeout: 60_000 })
      .toContain('Turn 3 completed');
    expect(await first.getByRole('list', { name: 'Transcript' }).innerText()).not.toContain('Turn 3');
    await keepScreenshot(page, 'peers-board');
    expect(browser.errors).toEqual([]);
  }, 180_000);

  test('each peer works in its own directory at the cut: two peers write the same file name and each sees only its own', async () => {
    const { page } = browser;
    const { sessionId: base } = await api<{ sessionId: string }>(demo.url, '/api/sessions', { method: 'POST', body: { title: 'apart' } });
    await api(demo.url, `/api/sessions/${base}/messages`, { method: 'POST', body: { text: 'write shared.md: from the baseline' } });
    await expect
      .poll(async () => (await api<Observed>(demo.url, `/api/sessions/${base}`)).events.some((event) => event.type === 'turn/end'), {
        timeout: 60_000,
      })
      .toBe(true);
    await page.goto(`${demo.url}#/s/${base}`);
    await page.getByRole('button', { name: 'Peers…' }).click();
    const form = page.getByRole('form', { name: 'Fork peers' });
    await form.getByLabel('Prompt for peer 1').fill('write notes.md: from one');
    await form.getByLabel('Prompt for peer 2').fill('write notes.md: from two');
    await form.getByRole('button', { name: 'Fork and run 2 peers' }).click();
    const board = page.getByRole('main', { name: 'Peers' });
    const one = board.getByRole('region', { name: 'Peer apart-1' });
    const two = board.getByRole('region', { name: 'Peer apart-2' });
    for (const column of [one, two])
      await expect
        .poll(() => column.getByRole('list', { name: 'Transcript' }).innerText(), { timeout: 60_000 })
        .toContain('Turn 2 completed');
    // The board names each peer's own directory.
    const dirOne = join(demo.dataDir, 'worktrees', 'apart-1');
    const dirTwo = join(demo.dataDir, 'worktrees', 'apart-2');
    expect(await one.innerText()).toContain(dirOne);
    expect(await two.innerText()).toContain(dirTwo);
    // Each asks for the file both wrote and reads only its own; the baseline's file is in both, the shared folder has neither peer's.
    await one.getByRole('textbox', { name: 'Message to apart-1' }).fill('read notes.md');
    await one.getByRole('button', { name: 'Send' }).click();
    await two.getByRole('textbox', { name: 'Message to apart-2' }).fill('read notes.md');
    await two.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => one.getByRole('list', { name: 'Transcript' }).innerText(), { timeout: 60_000 }).toContain('Turn 3 completed');
    await expect.poll(() => two.getByRole('list', { name: 'Transcript' }).innerText(), { timeout: 60_000 }).toContain('Turn 3 completed');
    expect(await one.getByRole('list', { name: 'Transcript' }).innerText()).not.toContain('from two');
    expect(await two.getByRole('list', { name: 'Transcript' }).innerText()).not.toContain('from one');
    expect([readFileSync(join(dirOne, 'notes.md'), 'utf8'), readFileSync(join(dirTwo, 'notes.md'), 'utf8')]).toEqual([
      'from one',
      'from two',
    ]);
    expect([readFileSync(join(dirOne, 'shared.md'), 'utf8'), readFileSync(join(dirTwo, 'shared.md'), 'utf8')]).toEqual([
      'from the baseline',
      'from the baseline',
    ]);
    expect(existsSync(join(demo.dataDir, 'workspace', 'notes.md'))).toBe(false);
    await keepScreenshot(page, 'peers-own-directories');
    expect(browser.errors).toEqual([]);
  }, 180_000);

  test('"Peers here…" on a selected event forks every peer exactly at that seq', async () => {
    const { page } = browser;
    const base = await baseline('exact');
    const toolCall = (await api<Observed>(demo.url, `/api/sessions/${base}`)).events.find((event) => event.type === 'tool/call')!;
    await page.goto(`${demo.url}#/s/${base}`);
    await page.getByRole('button', { name: `Select event ${String(toolCall.seq)}`, exact: true }).click();
    await page.getByRole('button', { name: 'Peers here…' }).click();
    const form = page.getByRole('form', { name: 'Fork peers' });
    expect(await form.innerText()).toContain(`exactly at seq ${String(toolCall.seq)}`);
    await form.getByLabel('Prompt for peer 1').fill('hello');
    await form.getByLabel('Prompt for peer 2').fill('hello');
    await form.getByRole('button', { name: 'Fork and run 2 peers' }).click();
    const board = page.getByRole('main', { name: 'Peers' });
    const first = board.getByRole('region', { name: 'Peer exact-1' });
    await expect.poll(() => first.getByRole('list', { name: 'Transcript' }).innerText(), { timeout: 60_000 }).toContain('Turn 2 completed');
    await expect
      .poll(() => board.getByRole('region', { name: 'Peer exact-2' }).getByRole('list', { name: 'Transcript' }).innerText(), {
        timeout: 60_000,
      })
      .toContain('Turn 2 completed');
    const ids = decodeURIComponent(new URL(page.url()).hash).split('/')[3]!.split(',');
    for (const id of ids) expect((await api<Observed>(demo.url, `/api/sessions/${id}`)).header.forkCut).toBe(toolCall.seq);
    // The open call is drawn once in each column: where it was called; its closer names it.
    expect(await first.getByRole('listitem', { name: /^Tool call / }).count()).toBe(1);
    expect(await first.getByRole('listitem', { name: /^Closer of / }).count()).toBe(1);
    await keepScreenshot(page, 'peers-board-exact');
    expect(browser.errors).toEqual([]);
  }, 180_000);
});
