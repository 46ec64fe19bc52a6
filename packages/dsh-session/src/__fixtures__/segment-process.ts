/**
 * A second process for the segment store's kill -9 probe: it takes the segment folder's lease of a
 * JSONL directory and publishes segments of varying sizes forever, printing each one once it is
 * published (durable), one JSON object per line.
 *   publish <dir> <seed>
 */
import { mkdir } from 'node:fs/promises';
import { leasesDir } from '../jsonl/jsonl-paths.js';
import { publishSegment } from '../jsonl/segments/publish-segment.js';
import { createSegmentStore } from '../jsonl/segments/segment-store.js';
import { acquireSegmentsLease } from '../jsonl/segments/segments-lease.js';

const [, dir, seed] = process.argv.slice(2) as [string, string, string];
const say = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);

const store = createSegmentStore({ dir });
await mkdir(leasesDir(dir), { recursive: true });
const lease = await acquireSegmentsLease(store);
say({ event: 'leased' });
for (let index = 0; ; index += 1) {
  // Sizes from a few bytes to ~3 MiB, so a kill lands inside long writes too.
  const size = 16 + ((index * 7919 + Number(seed) * 104_729) % (3 << 20));
  const line = `{"seed":${seed},"index":${String(index)},"text":"`.padEnd(size, 'x');
  const ref = await publishSegment(store, lease, Buffer.from(`${line}"}\n`, 'utf8'));
  say({ event: 'published', ...ref });
}
