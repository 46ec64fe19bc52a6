/**
 * The demo passes axe (axe-core, pinned: docs/decisions/2026-12-07-demo-axe-core.md) with no `serious`
 * or `critical` violation — the start page, a session open with an event selected, and the peers
 * board — in the light palette and in the dark one it follows from `prefers-color-scheme`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seriousAxeFindings } from './axe-check.js';
import { keepScreenshot, openBrowser, startDemoProcess, type BrowserPage, type DemoProcess } from './demo-harness.js';

let demo: DemoProcess;
beforeAll(async () => {
  demo = await startDemoProcess({ paceMs: 0 });
}, 90_000);
afterAll(async () => {
  await demo.stop();
});

/** Relative luminance (WCAG) of a computed `rgb(…)`/`rgba(…)` colour. */
function luminance(color: string): number {
  const [r = 0, g = 0, b = 0] = (color.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((part) => {
    const channel = Number(part) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The colours a reader sees in each main area: its text and the first opaque background behind it. */
async function areaColors(browser: BrowserPage): Promise<Record<string, { background: string; text: string }>> {
  const { page } = browser;
  const areas = {
    sessions: page.getByRole('navigation', { name: 'Sessions' }),
    chat: page.getByRole('main', { name: 'Chat' }),
    inspector: page.getByRole('complementary', { name: 'Inspector' }),
    assistant: page.getByRole('listitem', { name: 'Assistant message' }).first(),
    user: page.getByRole('listitem', { name: 'User message' }).first(),
  };
  const colors: Record<string, { background: string; text: string }> = {};
  for (const [name, locator] of Object.entries(areas)) {
    colors[name] = await locator.evaluate((element) => {
      let from: Element | null = element;
      let background = 'rgba(0, 0, 0, 0)';
      while (from !== null && /rgba\(.*, 0\)$|transparent/.test(background)) {
        background = getComputedStyle(from).backgroundColor;
        from = from.parentElement;
      }
      return { background, text: getComputedStyle(element).color };
    });
  }
  return colors;
}

/**
 * Opens the tour with event 10 selected: `read_file`'s result, whose JSON (the file's text) is longer
 * than its panel, so the inspector shows a scrolled region beside the event's actions.
 */
async function openTourAtEvent10(browser: BrowserPage): Promise<void> {
  const { page } = browser;
  await page.goto(`${demo.url}#/s/tour-every-effect`);
  await expect.poll(() => page.getByRole('list', { name: 'Transcript' }).innerText()).toContain('Turn 1 completed');
  await page.getByRole('button', { name: 'Inspect event 10' }).click();
  await expect.poll(() => page.getByRole('button', { name: 'Fork here' }).count()).toBe(1);
}

/** axe over the start page, the tour with event 10 selected, and the recorded peers board. */
async function axeOverThePages(browser: BrowserPage, name: string): Promise<void> {
  const { page } = browser;
  await page.goto(demo.url);
  await expect.poll(() => page.getByRole('region', { name: 'Welcome' }).innerText()).toContain('tour-every-effect');
  expect(await seriousAxeFindings(page)).toEqual([]);

  await openTourAtEvent10(browser);
  expect(await seriousAxeFindings(page)).toEqual([]);
  await keepScreenshot(page, `axe-session-${name}`);

  await page.goto(`${demo.url}#/peers/baseline/peer-formal,peer-casual`);
  const board = page.getByRole('main', { name: 'Peers' });
  await expect.poll(() => board.getByRole('list', { name: 'Transcript' }).count()).toBe(2);
  await expect.poll(() => board.getByRole('list', { name: 'Transcript' }).first().innerText()).toContain('Turn 2 completed');
  expect(await seriousAxeFindings(page)).toEqual([]);
  await keepScreenshot(page, `axe-peers-${name}`);
  expect(browser.errors).toEqual([]);
}

describe.each(['light', 'dark'] as const)('the demo in the %s palette', (colorScheme) => {
  let browser: BrowserPage;
  beforeAll(async () => {
    browser = await openBrowser({ width: 1280, height: 800 }, { colorScheme });
  }, 60_000);
  afterAll(async () => {
    await browser.close();
  });

  test('axe finds no serious or critical violation on the start page, an open session with a long event selected, and the peers board', async () => {
    await axeOverThePages(browser, colorScheme);
  }, 120_000);

  test(`each main area is drawn in the ${colorScheme} palette: ${colorScheme === 'dark' ? 'light text on a dark background' : 'dark text on a light background'}`, async () => {
    await openTourAtEvent10(browser);
    const colors = await areaColors(browser);
    for (const [area, { background, text }] of Object.entries(colors)) {
      const shown = `${area}: ${text} on ${background}`;
      if (colorScheme === 'dark') {
        expect(luminance(background), shown).toBeLessThan(0.2);
        expect(luminance(text), shown).toBeGreaterThan(0.4);
      } else {
        expect(luminance(background), shown).toBeGreaterThan(0.6);
        expect(luminance(text), shown).toBeLessThan(0.2);
      }
    }
  }, 60_000);
});

describe('the demo on a phone (375 px, touch)', () => {
  let browser: BrowserPage;
  beforeAll(async () => {
    browser = await openBrowser({ width: 375, height: 667 }, { isMobile: true, hasTouch: true });
  }, 60_000);
  afterAll(async () => {
    await browser.close();
  });

  test('axe finds no serious or critical violation on the start page, an open session and the peers board', async () => {
    await axeOverThePages(browser, 'phone');
  }, 120_000);
});
