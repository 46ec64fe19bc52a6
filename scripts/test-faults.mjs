#!/usr/bin/env node
// `pnpm test:faults`: runs every `*.faults.test.ts` (bounded by default; `DSH_FAULTS_SCALE=full` for
// the full runs), relays vitest's output, collects the `faults: <name> key=value…` lines the suites
// print, and ends with one summary. Exits non-zero when a test failed or anything was lost,
// half-written, escaped, answered 5xx or grew without bound.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { createInterface } from 'node:readline';

const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const SUMMED = ['trials', 'acknowledged', 'lost', 'halfWritten', 'escapes', 'status5xx', 'unbounded'];
const MUST_BE_ZERO = ['lost', 'halfWritten', 'escapes', 'status5xx', 'unbounded'];

const scale = process.env.DSH_FAULTS_SCALE === 'full' ? 'full' : 'bounded';
const args = ['exec', 'vitest', 'run', '.faults.test.ts', ...process.argv.slice(2)];
const child = spawn('pnpm', args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DSH_FAULTS_SCALE: scale } });

/** @type {{ name: string; figures: Record<string, string> }[]} */
const reports = [];
createInterface({ input: child.stdout }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  // vitest may prefix relayed output with ANSI colour codes.
  const plain = line.replace(ANSI_COLOUR, '');
  const match = /^faults: (\S+)((?: \S+=\S*| \S+="[^"]*")*)\s*$/.exec(plain);
  if (match === null) return;
  const figures = {};
  for (const pair of plain.slice(`faults: ${match[1]}`.length).matchAll(/ (\S+?)=("[^"]*"|\S*)/g)) figures[pair[1]] = pair[2];
  reports.push({ name: match[1], figures });
});

const code = await new Promise((resolve) => child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal === null ? 1 : 128))));
const totals = Object.fromEntries(SUMMED.map((key) => [key, 0]));
for (const { figures } of reports) for (const key of SUMMED) totals[key] += Number(figures[key] ?? 0);
const skipped = reports.filter((report) => report.figures.skipped !== undefined);

process.stdout.write(`\nfaults summary (${scale}): ${reports.length - skipped.length} suites reported\n`);
for (const { name, figures } of reports) {
  process.stdout.write(
    `  ${name.padEnd(28)} ${Object.entries(figures)
      .map(([key, value]) => `${key}=${value}`)
      .join(' ')}\n`,
  );
}
process.stdout.write(
  `  trials=${totals.trials} acknowledged=${totals.acknowledged} lost=${totals.lost} half-written=${totals.halfWritten} escapes=${totals.escapes} 5xx=${totals.status5xx} unbounded=${totals.unbounded}` +
    `${skipped.length > 0 ? ` skipped=${skipped.map((report) => report.name).join(',')}` : ''}\n`,
);
const bad = MUST_BE_ZERO.filter((key) => totals[key] !== 0);
if (bad.length > 0) process.stdout.write(`faults: FAILED — expected zero ${bad.join(', ')}\n`);
process.exit(code !== 0 ? code : bad.length > 0 ? 1 : 0);
