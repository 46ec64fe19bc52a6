/**
 * The notices under the transcript belong to the session they were made in (issue 38): switching to
 * another session clears them; a notice about an action that itself moves to a session (a fork) stays.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openBrowser, startDemoProcess, type BrowserPage, type DemoProcess } from './demo-harness.js';

let demo: DemoProcess;
let browser: BrowserPage;
beforeAll(async () => {
  demo = await startDemoProcess({ paceMs: 0 });
  browser = await openBrowser();
}, 90_000);
afterAll(async () => {
  await browser.close();
  await demo.stop();
});

describe('notices', () => {
  test('switching sessions clears the last notice, from the list, the welcome links and the browser history alike', async () => {
    const { page } = browser;
    const notices = page.getByRole('log', { name: 'Notices' });
    const refuse = async () => {
      await page.getByRole('textbox', { name: 'Message or command' }).fill('/resume nobody');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect.poll(() => notices.innerText()).toContain('SESSION_NOT_FOUND');
    };
    await page.goto(demo.url);
    await page.getByRole('region', { name: 'Welcome' }).getByRole('link', { name: 'legacy-v2' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Transcript' }).innerText()).toContain('Turn');
    await refuse();

    await page
      .getByRole('navigation', { name: 'Sessions' })
      .getByRole('link', { name: /^baseline/ })
      .click();
    await expect.poll(() => page.url()).toContain('#/s/baseline');
    await expect.poll(() => notices.innerText()).toBe('');

    await refuse();
    await page.goBack();
    await expect.poll(() => page.url()).toContain('#/s/legacy-v2');
    await expect.poll(() => notices.innerText()).toBe('');
    // The two refusals' 404s are the only errors the page logged.
    expect(browser.errors.filter((error) => !error.includes('status of 404'))).toEqual([]);
  }, 60_000);

  test('the notice of a fork stays when the fork opens its branch', async () => {
    const { page } = browser;
    await page.goto(`${demo.url}#/s/tour-every-effect`);
    await expect.poll(() => page.getByRole('list', { name: 'Transcript' }).innerText()).toContain('Turn 1 completed');
    await page.getByRole('button', { name: 'Fork', exact: true }).click();
    await expect.poll(() => page.url()).not.toContain('#/s/tour-every-effect');
    const notices = page.getByRole('log', { name: 'Notices' });
    await expect.poll(() => notices.innerText()).toMatch(/Branched: now on \S+, a fork of tour-every-effect/);
    // Still there once the branch has loaded.
    await expect.poll(() => page.getByRole('list', { name: 'Transcript' }).innerText()).toContain('Forked from tour-every-effect at seq');
    expect(await notices.innerText()).toMatch(/Branched: now on/);
  }, 60_000);

  test("the peers form's notice shows on the board it opens, and is cleared by opening one peer's chat", async () => {
    const { page } = browser;
    await page.goto(`${demo.url}#/s/baseline`);
    await expect.poll(() => page.getByRole('list', { name: 'Transcript' }).innerText()).toContain('Turn 1 completed');
    await page.getByRole('button', { name: 'Peers…' }).click();
    const form = page.getByRole('form', { name: 'Fork peers' });
    await form.getByLabel('Prompt for peer 1').fill('hello');
    await form.getByLabel('Prompt for peer 2').fill('hello');
    await form.getByRole('button', { name: 'Fork and run 2 peers' }).click();

    const board = page.getByRole('main', { name: 'Peers' });
    await expect.poll(() => board.getByRole('log', { name: 'Notices' }).innerText()).toMatch(/Forked 2 peers of baseline at seq \d+/);
    await board.getByRole('region').first().getByRole('link').first().click();
    await expect.poll(() => page.getByRole('main', { name: 'Chat' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('log', { name: 'Notices' }).innerText()).toBe('');
    // The first test's refusals (404) are the only errors this page logged.
    expect(browser.errors.filter((error) => !error.includes('status of 404'))).toEqual([]);
  }, 60_000);
});
