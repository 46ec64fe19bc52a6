/**
 * The demo's peers (SPEC §20) in the real browser: "Peers…" on a baseline and "Peers here…" on a
 * selected event fork siblings at one cut over HTTP; the board shows them in columns, each streaming
 * its own transcript, each with its own composer.
 */
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
