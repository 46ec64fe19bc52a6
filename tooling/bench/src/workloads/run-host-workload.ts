import { copyFile, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionEvent } from 'dsh-codec';
import { createKeylessModel } from 'dsh-agent';
import { createHost, demoTools, openSessionStore, serveHost, type Host } from 'dsh-host';
import type { BenchContext } from '../harness/bench-context.js';
import { figureOf, type Figure } from '../harness/figure.js';
import { fsyncPath } from '../harness/fs-baselines.js';
import { timeMs } from '../harness/measure-rounds.js';
import type { Section } from '../harness/report.js';
import { percentile } from '../harness/summarize.js';
import { createRandom, type Random } from '../generate/create-random.js';

const WORKLOAD = 'Host under load';
const SESSIONS = 50;
const FORKERS = 4;
const PROMPTS = ['explore', 'read a.txt', 'list files in src', 'read b.txt', 'what is this?'];

type ForkRecord = { parent: string; atSeq: number; child: string; ms: number; copyMs: number; round: number };
type Acknowledged = { inputIds: Set<string>; seen: Map<number, string> };

/**
 * Workload 4: 50 live sessions run turns (keyless model, demo tools) through the HTTP API on
 * loopback while forkers fork random sessions at random seqs over HTTP. Each fork is paired with a
 * copy + fsync of its parent's file under the same load; then the same on the idle host. Afterwards
 * a fresh store checks that nothing acknowledged was lost.
 */
export async function runHostWorkload(context: BenchContext): Promise<Section> {
  const { quick, runs, log } = context;
  const loadMs = quick ? 8_000 : 45_000;
  const idleForksPerRound = quick ? 5 : 15;
  const dir = join(context.dataDir, 'host-store');
  const cwd = join(context.dataDir, 'host-cwd');
  await prepareWorkingDirectory(cwd);
  const store = await openSessionStore({ dir });
  const host = createHost({ store, model: createKeylessModel(), tools: demoTools(), cwd });
  const server = await serveHost(host, { hostname: '127.0.0.1' });
  const api = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${server.url}${path}`, { ...init, headers: { 'content-type': 'application/json' } });
  const random = createRandom(41);
  const acknowledged = new Map<string, Acknowledged>();
  const forks: ForkRecord[] = [];
  let turns = 0;
  let hostClosed = false;

  try {
    const ids: string[] = [];
    for (let index = 0; index < SESSIONS; index += 1) {
      const response = await api('/api/sessions', { method: 'POST', body: JSON.stringify({ title: `load ${String(index)}` }) });
      const { sessionId } = (await expectStatus(response, 201)) as { sessionId: string };
      ids.push(sessionId);
      acknowledged.set(sessionId, { inputIds: new Set(), seen: new Map() });
    }
    log(`host: ${SESSIONS} sessions running turns for ${loadMs / 1000} s while ${FORKERS} forkers fork over HTTP`);

    const started = performance.now();
    const elapsed = (): number => performance.now() - started;
    const roundOf = (): number => Math.min(runs - 1, Math.floor((elapsed() / loadMs) * runs));
    const driver = async (id: string, offset: number): Promise<void> => {
      for (let turn = offset; elapsed() < loadMs; turn += 1) {
        const response = await api(`/api/sessions/${id}/messages`, {
          method: 'POST',
          body: JSON.stringify({ text: PROMPTS[turn % PROMPTS.length] }),
        });
        const { inputId } = (await expectStatus(response, 202)) as { inputId: string };
        acknowledged.get(id)?.inputIds.add(inputId);
        await host.idle(id);
        turns += 1;
      }
    };
    const forker = async (): Promise<void> => {
      while (elapsed() < loadMs) {
        const round = roundOf();
        const record = await forkAtRandom(api, host, dir, ids, random, acknowledged, 'load');
        forks.push({ ...record, round });
      }
    };
    await Promise.all([...ids.map((id, index) => driver(id, index)), ...Array.from({ length: FORKERS }, forker)]);
    await Promise.all(ids.map((id) => host.idle(id)));
    const loadSeconds = elapsed() / 1000;
    const loadForks = forks.length;

    log(
      `host: ${String(turns)} turns and ${String(loadForks)} forks under load; now ${String(runs * idleForksPerRound)} forks on the idle host`,
    );
    for (let round = 0; round < runs; round += 1) {
      for (let index = 0; index < idleForksPerRound; index += 1) {
        const record = await forkAtRandom(api, host, dir, ids, random, acknowledged, 'idle');
        forks.push({ ...record, round: runs + round });
      }
    }

    await server.close();
    await host.close();
    await store.close();
    hostClosed = true;
    const loss = await checkNothingLost(dir, acknowledged, forks);

    const perRound = (from: number, key: 'ms' | 'copyMs', p: number): number[] =>
      Array.from({ length: runs }, (_, round) => {
        const values = forks
          .filter((fork) => fork.round === from + round)
          .map((fork) => fork[key])
          .sort((a, b) => a - b);
        return values.length === 0 ? Number.NaN : percentile(values, p);
      });
    const figures: Figure[] = [];
    const complete = (values: number[]): boolean => values.every(Number.isFinite);
    const loadP50 = perRound(0, 'ms', 0.5);
    const loadP99 = perRound(0, 'ms', 0.99);
    const copyP50 = perRound(0, 'copyMs', 0.5);
    const copyP99 = perRound(0, 'copyMs', 0.99);
    const idleP50 = perRound(runs, 'ms', 0.5);
    if (complete(loadP50) && complete(copyP50) && complete(idleP50)) {
      figures.push(
        figureOf(
          {
            workload: WORKLOAD,
            label: 'HTTP fork p50 under load',
            metric: 'ms',
            baselineLabel: 'copy parent file + fsync, p50, same load',
          },
          loadP50,
          copyP50,
        ),
        figureOf(
          {
            workload: WORKLOAD,
            label: 'HTTP fork p99 under load',
            metric: 'ms',
            baselineLabel: 'copy parent file + fsync, p99, same load',
          },
          loadP99,
          copyP99,
        ),
        figureOf(
          { workload: WORKLOAD, label: 'HTTP fork p50 under load', metric: 'ms', baselineLabel: 'HTTP fork p50, idle host' },
          loadP50,
          idleP50,
        ),
      );
    }
    const allLoad = forks
      .filter((fork) => fork.round < runs)
      .map((fork) => fork.ms)
      .sort((a, b) => a - b);
    return {
      title: '4. Host under load',
      method: `
A \`Host\` (keyless offline model, demo tools) serves its HTTP API on 127.0.0.1. ${SESSIONS} sessions each run
turns back to back for ${loadMs / 1000} s: \`POST /api/sessions/:id/messages\`, then wait for the turn to end (prompts
cycle through explore / read / list, so turns have 1–3 steps and up to 3 tool calls). Meanwhile ${FORKERS} forkers
repeatedly pick a session, \`GET\` its observation, pick a random seq in it and \`POST /api/sessions/:id/fork\`
with that \`atSeq\`; right after each fork, the forker copies that parent's file and fsyncs it (the copy
baseline, under the same load). The load period is split into ${runs} equal windows; each window's p50 and p99
give one ratio, reported as median [min – max] over windows. Then ${idleForksPerRound} forks per round run on the idle host.`,
      figures,
      tables: [
        {
          caption: 'Nothing acknowledged was lost (checked after closing the host, through a fresh store)',
          headers: ['check', 'acknowledged', 'lost or different'],
          rows: loss.rows,
        },
      ],
      notes: [
        `Under load: ${String(turns)} turns (${(turns / loadSeconds).toFixed(1)} turns/s across ${SESSIONS} sessions), ${String(loadForks)} forks; absolute HTTP fork latency p50 ${percentile(allLoad, 0.5).toFixed(1)} ms, p99 ${percentile(allLoad, 0.99).toFixed(1)} ms.`,
        'Turn completion is awaited in-process with `host.idle(id)`; every other operation goes over HTTP.',
        'What a fork under load waits for that the copy baseline does not: its request and response pass through the same event loop as the 50 sessions’ turns and their HTTP traffic, and its two fsyncs (child file, directory) queue in libuv’s four-thread pool behind the sessions’ fdatasyncs. The fork itself reads only its cut (the parent is live: no decoding, no copying of its log).',
      ],
    };
  } finally {
    if (!hostClosed) {
      await server.close().catch(() => undefined);
      await host.close().catch(() => undefined);
      await store.close().catch(() => undefined);
    }
  }
}

async function prepareWorkingDirectory(cwd: string): Promise<void> {
  await mkdir(join(cwd, 'src'), { recursive: true });
  await writeFile(join(cwd, 'a.txt'), 'alpha\nbeta\ngamma\n');
  await writeFile(join(cwd, 'b.txt'), 'one\ntwo\n');
  await writeFile(join(cwd, 'c.txt'), 'x\n');
  await writeFile(join(cwd, 'd.txt'), 'the quick brown fox\n');
  await writeFile(join(cwd, 'src/index.ts'), 'export const answer = 42;\n');
}

// Names are unique per data folder (NAME_TAKEN), so every fork gets its own.
let forkCount = 0;

/** GETs a random session's observation, forks it at a random seq of it over HTTP, then times the copy baseline. */
async function forkAtRandom(
  api: (path: string, init?: RequestInit) => Promise<Response>,
  host: Host,
  dir: string,
  ids: readonly string[],
  random: Random,
  acknowledged: Map<string, Acknowledged>,
  kind: string,
): Promise<Omit<ForkRecord, 'round'>> {
  const parent = random.pick(ids);
  const observation = (await expectStatus(await api(`/api/sessions/${parent}`), 200)) as { events: SessionEvent[] };
  const seen = acknowledged.get(parent)?.seen;
  for (const event of observation.events) seen?.set(event.seq, JSON.stringify(event));
  const atSeq = random.int(0, Math.max(0, observation.events.length - 1));
  let child = '';
  const ms = await timeMs(async () => {
    const response = await api(`/api/sessions/${parent}/fork`, {
      method: 'POST',
      body: JSON.stringify({ atSeq, title: `${kind} fork ${++forkCount}` }),
    });
    child = ((await expectStatus(response, 201)) as { sessionId: string }).sessionId;
  });
  // Forked children stay cold: releasing keeps the host at its 50 live sessions.
  await host.release(child);
  const source = join(dir, `${parent}.jsonl`);
  // One temporary copy per fork: forkers run concurrently.
  const target = join(dir, `copy-${kind}-${child}.tmp`);
  const copyMs = await timeMs(async () => {
    await copyFile(source, target);
    await fsyncPath(target);
    await fsyncPath(dir);
  });
  await rm(target, { force: true });
  return { parent, atSeq, child, ms, copyMs };
}

async function expectStatus(response: Response, status: number): Promise<unknown> {
  const body: unknown = await response.json();
  if (response.status !== status) {
    throw new Error(`expected HTTP ${String(status)}, received ${String(response.status)}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  return body;
}

/** Reopens the store and compares it with everything the HTTP API acknowledged during the run. */
async function checkNothingLost(
  dir: string,
  acknowledged: Map<string, Acknowledged>,
  forks: readonly ForkRecord[],
): Promise<{ rows: string[][] }> {
  const store = await openSessionStore({ dir });
  try {
    let inputs = 0;
    let inputsLost = 0;
    let seen = 0;
    let seenDiffer = 0;
    const stored = new Map<string, readonly SessionEvent[]>();
    for (const [id, ack] of acknowledged) {
      const { events } = await store.inspect(id);
      stored.set(id, events);
      const queued = new Set(
        events.filter((event) => event.type === 'input/queued').map((event) => (event.data as { inputId: string }).inputId),
      );
      for (const inputId of ack.inputIds) {
        inputs += 1;
        if (!queued.has(inputId)) inputsLost += 1;
      }
      for (const [seq, text] of ack.seen) {
        seen += 1;
        const event = events[seq];
        if (event === undefined || JSON.stringify(event) !== text) seenDiffer += 1;
      }
    }
    let childrenBad = 0;
    for (const fork of forks) {
      const child = await store.inspect(fork.child);
      const parentEvents = stored.get(fork.parent) ?? [];
      const prefixMatches = child.events
        .slice(0, fork.atSeq + 1)
        .every((event, seq) => JSON.stringify(event) === JSON.stringify(parentEvents[seq]));
      if (child.header.forkCut !== fork.atSeq || child.header.inheritedEventCount !== fork.atSeq + 1 || !prefixMatches) childrenBad += 1;
    }
    const bytes = (await Promise.all([...acknowledged.keys()].map(async (id) => (await stat(join(dir, `${id}.jsonl`))).size))).reduce(
      (a, b) => a + b,
      0,
    );
    return {
      rows: [
        ['input accepted (202) is stored as `input/queued`', String(inputs), String(inputsLost)],
        ['event shown by an observation is stored, identical', String(seen), String(seenDiffer)],
        [
          "fork (201) child exists with `forkCut`, `inheritedEventCount` and the parent's exact prefix",
          String(forks.length),
          String(childrenBad),
        ],
        ["parents' stored logs", `${String(acknowledged.size)} files, ${(bytes / 2 ** 20).toFixed(1)} MiB`, ''],
      ],
    };
  } finally {
    await store.close();
  }
}
