/**
 * axe-core in the demo's browser tests: its pinned source injected into the page, run over the whole
 * document, answering the violations at an impact a user is blocked by (`serious`, `critical`).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** One violation as a test failure should name it: the rule, its impact, and where. */
export type AxeFinding = { rule: string; impact: string; help: string; targets: string[] };

type AxeResults = {
  violations: { id: string; impact?: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
};

let source: Promise<string> | undefined;

/** axe-core's browser build, read once per test file. */
function axeSource(): Promise<string> {
  source ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

/** Runs axe over `page` as it is now and returns its `serious` and `critical` violations. */
export async function seriousAxeFindings(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: await axeSource() });
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return (results as AxeResults).violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      targets: violation.nodes.map((node) => `${node.target.map(String).join(' ')}: ${node.failureSummary ?? ''}`),
    }));
}
