/**
 * Browser tests of the demo (issue 6): the real demo command on a free port with a fresh data
 * directory, driven through Debian's Chromium. Scenarios run one after another in this file.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { seriousAxeFindings } from './axe-check.js';
import { api, keepScreenshot, openBrowser, startDemoProcess, transcriptText, type BrowserPage, type DemoProcess } from './demo-harness.js';

type Event = { seq: number; type: string; data: Record<string, unknown> };
type Observation = {
  header: { parentSession?: string; forkCut?: number; inheritedEventCount: number };
  events: Event[];
  live: boolean;
  needsRepair: boolean;
};

const TURN_TIMEOUT = { timeout: 30_000 };

async function waitForTurnEnd(url: string, id: string, turn: number): Promise<Observation> {
  for (let attempt = 0; attempt < 150; attempt++) {
    const observation = await api<Observation>(url, `/api/sessions/${id}`);
    if (observation.events.some((event) => event.type === 'turn/end' && event.data.turn === turn)) return observation;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`turn ${turn} of ${id} did not end within 30 s`);
}

describe('fork-mid-turn (keyless)', () => {
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

  test('"Fork here" between a tool call and its result opens the child: prefix, marker, then its closers; it continues and the parent is unchanged', async () => {
    const parentBefore = await api<Observation>(demo.url, '/api/sessions/tour-every-effect');
    const callAt14 = parentBefore.events[14];
    expect(callAt14?.type).toBe('tool/call');
    expect(parentBefore.events[15]?.type).toBe('tool/result');

    const { page } = browser;
    await page.goto(`${demo.url}#/s/tour-every-effect`);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await expect.poll(() => transcript.innerText()).toContain('Turn 1 completed');
    await page.getByRole('button', { name: 'Inspect event 14' }).click();
    await page.getByRole('complementary', { name: 'Inspector' }).getByRole('button', { name: 'Fork here' }).click();
    await expect.poll(() => page.url()).not.toContain('#/s/tour-every-effect');
    const childId = decodeURIComponent(/#\/s\/(.+)$/.exec(page.url())?.[1] ?? '');
    const fork = (await api<Observation>(demo.url, `/api/sessions/${childId}`)).header;
    expect(fork).toMatchObject({ parentSession: 'tour-every-effect', forkCut: 14, inheritedEventCount: 15 });

    await expect.poll(() => transcript.locator('.result.synthetic.forked').count(), TURN_TIMEOUT).toBe(2);
    await expect.poll(() => transcript.innerText()).toContain('Branch closer: started in the parent, outcome unknown to this branch');
    await expect.poll(() => transcript.innerText()).toContain('Branch closer: not started before the fork');
    await expect.poll(() => transcript.innerText()).toContain('This session was forked after this tool call started in the parent');
    const text = await transcript.innerText();
    expect(text).not.toMatch(/interrupted|crash/i);
    // Seq order: the inherited prefix, then the marker (15), then the closers (16, 17), then the turn's end.
    const order = [
      'Add a farewell() function',
      'Forked from tour-every-effect at seq 14',
      'Branch closer: started in the parent',
      'Branch closer: not started before the fork',
      'Turn 1 closed at the fork point',
    ].map((needle) => text.indexOf(needle));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));

    await page.getByRole('textbox', { name: 'Message or command' }).fill('continue');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => transcript.innerText(), TURN_TIMEOUT).toContain('Turn 2 completed');

    // The branch's workspace events read as what they are (SPEC §23), never as a bare "plugin event".
    const checkpoints = transcript.getByRole('listitem', { name: /^Workspace checkpoint after / });
    await expect.poll(() => checkpoints.count()).toBe(3);
    expect(await checkpoints.first().getAttribute('aria-label')).toBe('Workspace checkpoint after turn start');
    expect(await checkpoints.first().innerText()).toMatch(/Checkpoint after turn start · tree [0-9a-f]{7} · nothing skipped · \d+ ms/);
    expect(await checkpoints.nth(1).innerText()).toMatch(/Checkpoint after make_dir \S+ · tree [0-9a-f]{7}/);
    expect(await transcript.getByRole('listitem', { name: /^Note: / }).innerText()).toContain('Note to the model: ');
    expect(await transcript.innerText()).not.toContain('plugin event');
    expect(await seriousAxeFindings(page)).toEqual([]);

    // Checked in; after an intended change, `vitest run -u` rewrites it for review.
    await expect(await transcriptText(page)).toMatchFileSnapshot('./expected/fork-mid-turn.txt');

    const parentAfter = await api<Observation>(demo.url, '/api/sessions/tour-every-effect');
    expect(parentAfter.events).toEqual(parentBefore.events);

    await page.getByRole('button', { name: 'Inspect event 14' }).first().click();
    const inspector = page.getByRole('complementary', { name: 'Inspector' });
    await expect.poll(() => inspector.getByRole('region', { name: 'Event 14' }).innerText()).toContain('seq 14 · tool/call');
    expect(await inspector.getByLabel('Fork command').innerText()).toBe(`dsh fork ${childId} --at 14 --data ${demo.dataDir}`);

    await keepScreenshot(page, 'fork-mid-turn-laptop');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect.poll(() => transcript.innerText()).toContain('Turn 2 completed');
    await keepScreenshot(page, 'fork-mid-turn-phone');
    expect(browser.errors).toEqual([]);
  }, 60_000);

  test('forks are listed under their parent in seq order of their cut, named after the parent and cut', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload(); // the session list unfolds at laptop width on load
    const tour = 'Tour: one turn, tools of every effect';
    const heading = page.getByRole('main').getByRole('heading', { level: 2 });
    for (const seq of [20, 8]) {
      await page.goto(`${demo.url}#/s/tour-every-effect`);
      // The hash changes at once; the session shown changes when its events arrive. Selecting before
      // that would select the previous session's event of the same seq (and fork that session).
      await expect.poll(() => heading.innerText()).toBe(tour);
      await page.getByRole('button', { name: `Select event ${seq}`, exact: true }).click();
      await page.getByRole('complementary', { name: 'Inspector' }).getByRole('button', { name: 'Fork here' }).click();
      await expect.poll(() => page.url()).not.toContain('#/s/tour-every-effect');
    }
    const forks = page.getByRole('navigation', { name: 'Sessions' }).getByRole('list', { name: `Forks of ${tour}` });
    await expect
      .poll(() => forks.locator('.session-title').allInnerTexts())
      .toEqual([`${tour} @ seq 8`, `${tour} @ seq 14`, `${tour} @ seq 20`]);
    expect(await heading.innerText()).toBe(`${tour} @ seq 8`);
    expect(browser.errors).toEqual([]);
  });
});

describe('/branch while a turn runs', () => {
  let demo: DemoProcess;
  let browser: BrowserPage;
  beforeAll(async () => {
    // A pause before each model call keeps the turn running long enough to branch inside it.
    demo = await startDemoProcess({ paceMs: 1500 });
    browser = await openBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser.close();
    await demo.stop();
  });

  test('switches to a frozen branch; the running turn stays with the original, which stays resumable', async () => {
    const { page } = browser;
    await page.goto(`${demo.url}#/s/tour-every-effect`);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    const composer = page.getByRole('textbox', { name: 'Message or command' });
    await expect.poll(() => transcript.innerText()).toContain('Turn 1 completed');

    await composer.fill('explore');
    await composer.press('Enter');
    await expect.poll(() => page.getByRole('main').innerText(), TURN_TIMEOUT).toContain('turn running');
    await expect.poll(() => transcript.innerText()).toContain('Turn 2');

    await composer.fill('/branch side quest');
    await composer.press('Enter');
    const notices = page.getByRole('log', { name: 'Notices' });
    await expect.poll(() => notices.innerText()).toMatch(/Branched: now on \S+, a fork of tour-every-effect at seq \d+/);
    const [, branchId = '', cut = ''] =
      /Branched: now on (\S+), a fork of tour-every-effect at seq (\d+)/.exec(await notices.innerText()) ?? [];
    const forkCut = Number(cut);
    expect(await notices.innerText()).toContain('The original tour-every-effect stays resumable: /resume tour-every-effect');
    await expect.poll(() => page.url()).toContain(`#/s/${branchId}`);
    await expect.poll(() => page.getByRole('heading', { level: 2, name: 'side quest' }).count()).toBe(1);

    const original = await waitForTurnEnd(demo.url, 'tour-every-effect', 2);
    // The chat rule cut right before the queued input that started the running turn.
    expect(original.events[forkCut + 1]?.type).toBe('input/queued');
    expect(JSON.stringify(original.events[forkCut + 1]?.data)).toContain('explore');
    expect(original.events.some((event) => event.type === 'user/message' && JSON.stringify(event.data).includes('explore'))).toBe(true);
    const branch = await api<Observation>(demo.url, `/api/sessions/${branchId}`);
    expect(branch.header).toMatchObject({ parentSession: 'tour-every-effect', forkCut, inheritedEventCount: forkCut + 1 });
    expect(branch.events.some((event) => event.type === 'turn/start' && event.data.turn === 2)).toBe(false);
    expect(JSON.stringify(branch.events)).not.toContain('explore');
    const branchText = await transcript.innerText();
    expect(branchText).toContain(`Forked from tour-every-effect at seq ${forkCut}`);
    expect(branchText).not.toContain('explore');

    await composer.fill('/resume tour-every-effect');
    await composer.press('Enter');
    await expect.poll(() => transcript.innerText(), TURN_TIMEOUT).toContain('Turn 2 completed');
    expect(await transcript.innerText()).toContain('I explored the working directory');
    await composer.fill('list files');
    await composer.press('Enter');
    await expect.poll(() => transcript.innerText(), TURN_TIMEOUT).toContain('Turn 3 completed');

    await keepScreenshot(page, 'branch-while-running');
    expect(browser.errors).toEqual([]);
  }, 90_000);
});

describe('recordings', () => {
  let demo: DemoProcess;
  let browser: BrowserPage;
  beforeAll(async () => {
    demo = await startDemoProcess({ paceMs: 0 });
    browser = await openBrowser({ width: 390, height: 844 });
  }, 90_000);
  afterEach(() => {
    expect(browser.errors).toEqual([]);
  });
  afterAll(async () => {
    await browser.close();
    await demo.stop();
  });

  test('opening the crashed recording shows its repair at once: interrupted wording and the repaired turn, then it continues', async () => {
    const stored = await api<Observation>(demo.url, '/api/sessions/crashed-mid-step');
    expect(stored).toMatchObject({ live: false, needsRepair: true });
    const storedLength = stored.events.length;

    const { page } = browser;
    await page.goto(`${demo.url}#/s/crashed-mid-step`);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await expect.poll(() => page.getByRole('note').innerText()).toContain('stopped mid-step. Opening it ran crash repair');
    expect(await page.getByRole('note').innerText()).toContain(
      `seqs ${storedLength}–${storedLength + 3} give 2 open call(s) interrupted results and close turn 1 as interrupted`,
    );
    // Right after opening, before any message: the repaired turn is rendered.
    const opened = await transcript.innerText();
    expect(await transcript.locator('.result.synthetic.interrupted').count()).toBe(2);
    expect(opened).toContain('Crash repair: started, outcome unknown');
    expect(opened).toContain('Crash repair: never started');
    expect(opened).toContain('The session was interrupted after this tool call started');
    expect(opened).toContain('The session was interrupted before this tool call started');
    expect(opened).toContain('Turn 1 interrupted: the process stopped mid-turn, and crash repair closed it');
    expect(opened).not.toContain('Started: no result recorded yet');
    expect(opened).not.toContain('Turn 2');
    expect(opened).not.toContain('forked');
    expect(await page.getByRole('main').innerText()).toContain(' · live');
    // The repair is persisted and the session is live in the host; nothing else was appended.
    const repaired = await api<Observation>(demo.url, '/api/sessions/crashed-mid-step');
    expect(repaired).toMatchObject({ live: true, needsRepair: false });
    expect(repaired.events.slice(0, storedLength)).toEqual(stored.events);
    expect(repaired.events.slice(storedLength).map((event) => event.type)).toEqual([
      'tool/result',
      'tool/result',
      'step/end',
      'turn/end',
      'session/end-seed',
    ]);
    await keepScreenshot(page, 'crashed-recording-phone');

    const composer = page.getByRole('textbox', { name: 'Message or command' });
    await composer.fill('continue');
    await composer.press('Enter');
    await expect.poll(() => transcript.innerText(), TURN_TIMEOUT).toContain('Turn 2 completed');
    const text = await transcript.innerText();
    expect(await transcript.locator('.result.synthetic.interrupted').count()).toBe(2);
    expect(text).toContain('Turn 1 interrupted: the process stopped mid-turn, and crash repair closed it');
    expect(text).not.toContain('forked');
  }, 60_000);

  test('the Fork action forks the chat at its latest closed turn and opens the branch', async () => {
    const { page } = browser;
    await page.goto(`${demo.url}#/s/baseline`);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await expect.poll(() => transcript.innerText()).toContain('Turn 1 completed');
    await page.getByRole('button', { name: 'Fork', exact: true }).click();
    await expect.poll(() => transcript.innerText()).toContain('Forked from baseline at seq 13');
    const branchId = /#\/s\/(.+)$/.exec(page.url())?.[1] ?? '';
    expect(branchId).not.toBe('baseline');
    expect(await api<Observation>(demo.url, `/api/sessions/${branchId}`)).toMatchObject({
      header: { parentSession: 'baseline', forkCut: 13 },
    });
    const sessions = page.getByRole('navigation', { name: 'Sessions' });
    // At phone width the list starts folded.
    await sessions.getByText(/^Sessions \(\d+\)$/).click();
    await expect.poll(() => sessions.getByRole('list', { name: 'Forks of baseline' }).getByRole('link').count()).toBe(3);
  });

  test('composer commands rename, compact and resume by name; an unknown name is refused', async () => {
    const { page } = browser;
    await page.goto(`${demo.url}#/s/peer-formal`);
    const transcript = page.getByRole('list', { name: 'Transcript' });
    const composer = page.getByRole('textbox', { name: 'Message or command' });
    const notices = page.getByRole('log', { name: 'Notices' });
    await expect.poll(() => transcript.innerText()).toContain('Turn 2 completed');

    await composer.fill('/rename formal twin');
    await composer.press('Enter');
    await expect.poll(() => page.getByRole('heading', { level: 2, name: 'formal twin' }).count()).toBe(1);
    // The heading follows the SSE title event; the command is done (and the composer free) once its notice shows.
    await expect.poll(() => notices.innerText()).toContain('Renamed peer-formal to “formal twin”.');

    await composer.fill('/compact');
    await composer.press('Enter');
    await expect.poll(() => notices.innerText()).toMatch(/Compacted: seqs \d+–\d+ are replaced by a summary/);
    await expect.poll(() => transcript.getByRole('listitem', { name: 'Compaction summary' }).count()).toBe(1);

    await composer.fill('/resume nobody');
    await composer.press('Enter');
    await expect.poll(() => notices.innerText()).toContain("SESSION_NOT_FOUND: No session has the id or name 'nobody'.");
    // The page asked the host to resolve the name; the browser logs the host's 404 answer.
    await expect.poll(() => browser.errors.length).toBe(1);
    expect(browser.errors.splice(0)).toEqual(['console: Failed to load resource: the server responded with a status of 404 (Not Found)']);
    await composer.fill('/resume baseline');
    await composer.press('Enter');
    await expect.poll(() => page.url()).toContain('#/s/baseline');
    await expect.poll(() => page.getByRole('heading', { level: 2, name: 'baseline' }).count()).toBe(1);
    expect((await api<{ title?: string }>(demo.url, '/api/sessions/peer-formal')).title).toBe('formal twin');
  });

  test.each([
    ['legacy-v0', 0, 'What does src/greet.js export?'],
    ['legacy-v2', 2, 'Turn 2 cancelled'],
    ['legacy-v3', 3, 'Crash repair: never started'],
  ])('the %s recording opens through migration and says it was read from V%i', async (id, version, expected) => {
    const { page } = browser;
    await page.goto(`${demo.url}#/s/${id}`);
    const main = page.getByRole('main');
    await expect.poll(() => page.getByRole('list', { name: 'Transcript' }).innerText()).toContain(expected);
    expect(await main.innerText()).toContain(`read from format V${version}`);
  });
});
