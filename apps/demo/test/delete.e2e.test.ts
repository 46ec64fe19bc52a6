/**
 * "Delete" in the demo, in the real browser: two clicks (Delete, then Confirm delete) delete the open
 * session over `DELETE /api/sessions/:id`; a fork keeps its copy. (The refusal while a turn runs is
 * pinned in process by dsh-host's delete-route.test.ts, where the test holds the turn open.)
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, openBrowser, startDemoProcess, type BrowserPage, type DemoProcess } from './demo-harness.js';

let demo: DemoProcess;
let browser: BrowserPage;
beforeAll(async () => {
  demo = await startDemoProcess({ paceMs: 200 });
  browser = await openBrowser();
}, 90_000);
afterAll(async () => {
  await browser.close();
  await demo.stop();
});

type Listed = { sessions: { id: string; title?: string }[] };
type Observed = { events: { type: string }[] };

async function sessionWithTurn(title: string): Promise<string> {
  const { sessionId } = await api<{ sessionId: string }>(demo.url, '/api/sessions', { method: 'POST', body: { title } });
  await api(demo.url, `/api/sessions/${sessionId}/messages`, { method: 'POST', body: { text: 'hello' } });
  await expect
    .poll(async () => (await api<Observed>(demo.url, `/api/sessions/${sessionId}`)).events.some((event) => event.type === 'turn/end'), {
      timeout: 60_000,
    })
    .toBe(true);
  return sessionId;
}

describe('Delete in the demo', () => {
  test('the first click only asks; Confirm delete deletes the session, the page returns to the start and its fork stays', async () => {
    const { page } = browser;
    const id = await sessionWithTurn('doomed');
    const child = await api<{ sessionId: string }>(demo.url, `/api/sessions/${id}/fork`, { method: 'POST', body: { title: 'survivor' } });
    await page.goto(`${demo.url}#/s/${id}`);
    const chat = page.getByRole('main', { name: 'Chat' });
    await chat.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = chat.getByRole('button', { name: 'Confirm delete' });
    await expect.poll(() => confirm.count()).toBe(1);
    const listed = async () => (await api<Listed>(demo.url, '/api/sessions')).sessions.map((session) => session.id);
    expect(await listed()).toContain(id);
    await confirm.click();
    await expect.poll(listed).not.toContain(id);
    expect(await listed()).toContain(child.sessionId);
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('');
    await expect.poll(() => page.getByRole('log', { name: 'Notices' }).innerText()).toContain(`Deleted ${id}`);
  });
});
