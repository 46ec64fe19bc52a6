/**
 * Streamed text in the page: with `--pace`, the keyless model's deltas reach the page one by one
 * over SSE (`event: delta`); the page shows them as a "Streaming reply" node that grows, then the
 * persisted `assistant/message` replaces it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { keepScreenshot, openBrowser, startDemoProcess, type BrowserPage, type DemoProcess } from './demo-harness.js';

let demo: DemoProcess;
let browser: BrowserPage;
beforeAll(async () => {
  // 1500 ms before each model call, then its deltas 250 ms apart.
  demo = await startDemoProcess({ paceMs: 1500 });
  browser = await openBrowser();
}, 90_000);
afterAll(async () => {
  await browser.close();
  await demo.stop();
});

describe('streamed text', () => {
  test('grows in a streaming node as deltas arrive, then the persisted message takes its place', async () => {
    const { page } = browser;
    await page.goto(demo.url);
    // Every text the streaming node shows, recorded in the page as it changes.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { streamed: string[] }).streamed = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[aria-label="Streaming reply"] p')?.textContent;
        if (text !== undefined && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('textbox', { name: 'Message or command' }).fill('hello');
    await page.getByRole('button', { name: 'Send' }).click();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    const streaming = transcript.getByRole('listitem', { name: 'Streaming reply' });
    await expect.poll(() => streaming.count(), { timeout: 30_000 }).toBe(1);
    await keepScreenshot(page, 'streaming-reply');
    await expect.poll(() => transcript.innerText(), { timeout: 30_000 }).toContain('Turn 1 completed');

    const message = await transcript.getByRole('listitem', { name: 'Assistant message' }).locator('p').innerText();
    expect(message).toContain('keyless offline model');
    expect(await streaming.count()).toBe(0);
    const seen = await page.evaluate(() => (window as unknown as { streamed: string[] }).streamed);
    // At least two growing partial texts were on screen, each a prefix of the final message.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[0]?.length).toBeLessThan(message.length);
    for (const text of seen) expect(message.startsWith(text)).toBe(true);
    expect(seen.map((text) => text.length)).toEqual([...seen.map((text) => text.length)].sort((a, b) => a - b));
    expect(browser.errors).toEqual([]);
  }, 90_000);
});
