import { mkdtemp, copyFile, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJsonl } from 'dsh-codec';
import { openSessionStore } from 'dsh-session';
import { generateV4Log, v4Jsonl } from '/work/wt/lazy/tooling/bench/src/generate/generate-v4-log.ts';
import { findOpenStepCut } from '/work/wt/lazy/tooling/bench/src/generate/find-open-step-cut.ts';
const dir = await mkdtemp(join(tmpdir(), 'pf-'));
const store = await openSessionStore({ dir });
const log = generateV4Log({ events: 1000, seed: 31, id: 'p' });
const cut = findOpenStepCut(log.events, 500);
await store.import(decodeJsonl(v4Jsonl(log)));
const live = process.argv.includes('live') ? await store.open('p') : undefined;
const f = [], c = [];
for (let i = 0; i < 60; i++) {
  let t = performance.now();
  const child = await store.fork('p', { atSeq: cut, id: `c${i}` });
  f.push(performance.now() - t);
  await child.close();
  t = performance.now();
  await copyFile(join(dir, 'p.jsonl'), join(dir, `k${i}`)); const h = await open(join(dir, `k${i}`), 'r+'); await h.sync(); await h.close(); const d = await open(dir, 'r'); await d.sync(); await d.close();
  c.push(performance.now() - t);
}
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
console.log(process.argv.includes('live') ? 'live' : 'cold', 'fork', med(f).toFixed(2), 'copy', med(c).toFixed(2), 'ratio', (med(f)/med(c)).toFixed(2));
await live?.close(); await store.close();
