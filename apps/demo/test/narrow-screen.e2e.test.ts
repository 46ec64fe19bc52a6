/**
 * The demo on a narrow screen (SPEC §25, issue 38): "Fork here" within reach of a phone's thumb
 * without horizontal scrolling, and the session list folding behind its toggle when the window gets
 * narrow (shown again when it gets wide).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, keepScreenshot, openBrowser, startDemoProcess, type BrowserPage, type DemoProcess } from './demo-harness.js';
import type { Locator, Page } from 'playwright-core';

let demo: DemoProcess;
beforeAll(async () => {
  demo = await startDemoProcess({ paceMs: 0 });
}, 90_000);
afterAll(async () => {
  await demo.stop();
});

/** Whether `locator` lies wholly inside the visible part of the page, as it is scrolled now. */
function inViewport(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth;
  });
}

/** Whether the page is wider than its window (a horizontal scroll). */
function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

describe('on a phone (375 × 667, touch)', () => {
  let browser: BrowserPage;
  beforeAll(async () => {
    browser = await openBrowser({ width: 375, height: 667 }, { isMobile: true, hasTouch: true });
  }, 60_000);
  afterAll(async () => {
    await browser.close();
  });

  test('tapping an event\'s seq brings "Fork here" into view with no sideways scroll, and tapping it forks exactly there', async () => {
    const { page } = browser;
    await page.goto(`${demo.url}#/s/tour-every-effect`);
    await expect.poll(() => page.getByRole('list', { name: 'Transcript' }).innerText()).toContain('Turn 1 completed');
    await page.getByRole('button', { name: 'Inspect event 14' }).tap();

    const forkHere = page.getByRole('complementary', { name: 'Inspector' }).getByRole('button', { name: 'Fork here' });
    await expect.poll(() => inViewport(forkHere)).toBe(true);
    expect(await scrollsSideways(page)).toBe(false);
    await keepScreenshot(page, 'phone-fork-here');
    await forkHere.tap();
    await expect.poll(() => page.url()).not.toContain('#/s/tour-every-effect');
    const childId = decodeURIComponent(/#\/s\/(.+)$/.exec(page.url())?.[1] ?? '');
    const child = await api<{ header: { parentSession?: string; forkCut?: number } }>(demo.url, `/api/sessions/${childId}`);
    expect(child.header).toMatchObject({ parentSession: 'tour-every-effect', forkCut: 14 });
    expect(browser.errors).toEqual([]);
  }, 60_000);
});

describe('a window resized', () => {
  let browser: BrowserPage;
  beforeAll(async () => {
    browser = await openBrowser({ width: 1280, height: 800 });
  }, 60_000);
  afterAll(async () => {
    await browser.close();
  });

  test('the session list folds behind its toggle when the window gets narrow, opens from the toggle, folds after a pick, and shows again when wide', async () => {
    const { page } = browser;
    await page.goto(`${demo.url}#/s/tour-every-effect`);
    const list = page.getByRole('navigation', { name: 'Sessions' });
    const toggle = list.locator('summary');
    const baseline = list.getByRole('link', { name: /^baseline/ });
    await expect.poll(() => baseline.isVisible()).toBe(true);

    await page.setViewportSize({ width: 375, height: 667 });
    await expect.poll(() => baseline.isVisible()).toBe(false);
    expect(await toggle.isVisible()).toBe(true);
    expect(await scrollsSideways(page)).toBe(false);

    await toggle.click();
    await expect.poll(() => baseline.isVisible()).toBe(true);
    await baseline.click();
    await expect
      .poll(() => page.getByRole('main', { name: 'Chat' }).getByRole('heading', { level: 2 }).first().innerText())
      .toBe('baseline');
    await expect.poll(() => baseline.isVisible()).toBe(false);

    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => baseline.isVisible()).toBe(true);
    expect(browser.errors).toEqual([]);
  }, 60_000);
});
