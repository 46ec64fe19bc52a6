// Issue 11, hole 6: the demo file tools against a second process that keeps swapping a directory of
// the cwd for a symbolic link to a directory outside it. Zero escapes: nothing outside is listed,
// created, read or written, however the swaps fall between the tools' steps.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentError, type ToolContext, type ToolOutput } from 'dsh-agent';
import { listFilesTool } from './list-files-tool.js';
import { makeDirTool } from './make-dir-tool.js';
import { readFileTool } from './read-file-tool.js';
import { writeFileTool } from './write-file-tool.js';
import { faultTrials, makeTempDir, reportFaults, type TempDir } from '@dsh/test-utils';

const SECRET = 'OUTSIDE SECRET';

/**
 * The attacker: renames `d` away, puts a symlink to `outside` in its place, then puts the directory
 * back — forever, until killed — holding each state for a random 0–100 µs so that the swaps land
 * anywhere between a tool's steps. A tool may make a new `d` while the real one is parked (that one
 * is inside the cwd, so no escape): it is moved aside, so the swapping never stalls. Every 100 swaps
 * it prints how many it made.
 */
const SWAPPER = `
const fs = require('node:fs');
const [cwd, outside] = process.argv.slice(1);
const dir = cwd + '/d', parked = cwd + '/d.parked';
let swaps = 0, strays = 0;
const hold = () => { const until = process.hrtime.bigint() + BigInt(Math.floor(Math.random() * 100000)); while (process.hrtime.bigint() < until); };
const kind = (path) => { try { return fs.lstatSync(path).isSymbolicLink() ? 'link' : 'dir'; } catch { return 'none'; } };
const clear = () => {
  const found = kind(dir);
  if (found === 'link') fs.unlinkSync(dir);
  else if (found === 'dir') fs.renameSync(dir, cwd + '/stray-' + String(strays++));
};
process.stdout.write('ready\\n');
for (;;) {
  try {
    if (kind(parked) === 'none') fs.renameSync(dir, parked);
    clear();
    fs.symlinkSync(outside, dir);
    hold();
    clear();
    fs.renameSync(parked, dir);
    if (++swaps % 100 === 0) process.stdout.write(swaps + '\\n');
  } catch {}
  hold();
}`;

const textOf = (output: ToolOutput): string => (typeof output === 'string' ? output : output.text);

type Swapper = { child: ChildProcess; swaps: () => number };

function startSwapper(cwd: string, outside: string): Promise<Swapper> {
  const child = spawn(process.execPath, ['-e', SWAPPER, cwd, outside], { stdio: ['ignore', 'pipe', 'inherit'] });
  let swaps = 0;
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const counts = chunk.split('\n').filter((line) => /^[0-9]+$/.test(line));
      if (counts.length > 0) swaps = Number(counts.at(-1));
      if (chunk.includes('ready')) resolve({ child, swaps: () => swaps });
    });
  });
}

async function stopSwapper(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('demo file tools racing a directory swapped for a symlink to outside the cwd', () => {
  let root: TempDir;
  let cwd: string;
  let outside: string;
  let swapper: Swapper | undefined;
  beforeEach(async () => {
    root = await makeTempDir();
    cwd = join(root.path, 'work');
    outside = join(root.path, 'outside');
    await mkdir(join(cwd, 'd'), { recursive: true });
    await mkdir(outside);
    await writeFile(join(cwd, 'd', 'file.txt'), 'inside');
    await writeFile(join(cwd, 'd', 'inside-marker.txt'), '');
    await writeFile(join(outside, 'file.txt'), SECRET);
    await writeFile(join(outside, 'outside-marker.txt'), '');
  });
  afterEach(async () => {
    if (swapper !== undefined) await stopSwapper(swapper.child);
    await root.remove();
  });

  it('lists, creates, reads and writes nothing outside the cwd in thousands of calls', { timeout: 900_000 }, async () => {
    const trials = faultTrials(2_000, 25_000);
    const context: ToolContext = { cwd, signal: new AbortController().signal, sessionId: 's', callId: 'c', turn: 1, step: 1 };
    const escapes = { listed: 0, created: 0, read: 0, written: 0 };
    const outcomes = { ok: 0, refused: 0, untyped: 0 };
    const refusals = new Map<string, number>();
    swapper = await startSwapper(cwd, outside);
    for (let index = 0; index < trials; index++) {
      try {
        switch (index % 4) {
          case 0: {
            if (textOf(await listFilesTool.run({ path: 'd' }, context)).includes('outside-marker.txt')) escapes.listed++;
            break;
          }
          case 1:
            await makeDirTool.run({ path: `d/made-${String(index)}` }, context);
            break;
          case 2: {
            if (textOf(await readFileTool.run({ path: 'd/file.txt' }, context)) === SECRET) escapes.read++;
            break;
          }
          default:
            // Mostly new files; every eighth call overwrites the file whose twin outside holds the secret.
            await writeFileTool.run(
              { path: index % 8 === 7 ? 'd/file.txt' : `d/written-${String(index)}.txt`, content: 'from the tool' },
              context,
            );
        }
        outcomes.ok++;
      } catch (error) {
        if (!AgentError.is(error)) {
          outcomes.untyped++;
          continue;
        }
        outcomes.refused++;
        refusals.set(error.code, (refusals.get(error.code) ?? 0) + 1);
      }
    }
    const swaps = swapper.swaps();
    await stopSwapper(swapper.child);
    swapper = undefined;

    const left = await readdir(outside);
    escapes.created = left.filter((name) => name.startsWith('made-')).length;
    escapes.written =
      left.filter((name) => name.startsWith('written-')).length + ((await readFile(join(outside, 'file.txt'), 'utf8')) === SECRET ? 0 : 1);
    const total = escapes.listed + escapes.created + escapes.read + escapes.written;
    reportFaults('file-tools-race', {
      trials,
      escapes: total,
      swaps,
      listedOutside: escapes.listed,
      createdOutside: escapes.created,
      readOutside: escapes.read,
      writtenOutside: escapes.written,
      ...outcomes,
      ...Object.fromEntries(refusals),
    });
    expect(outcomes.ok).toBeGreaterThan(0);
    // The attack really ran alongside the calls (a stalled swapper would prove nothing).
    expect(swaps).toBeGreaterThanOrEqual(100);
    expect(escapes).toEqual({ listed: 0, created: 0, read: 0, written: 0 });
    // Every refusal is a typed AgentError (a raw ENOENT from a half-swapped path would be a bug too).
    expect(outcomes.untyped).toBe(0);
  });
});
