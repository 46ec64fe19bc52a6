import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { timeMs } from '../harness/measure-rounds.js';
import { piSession, uuidFrom, type PeerHistory } from './peer-histories.js';
import { createRandom } from '../generate/create-random.js';
import type { PeerDriver, PeerInput } from './peer-driver.js';

/** The part of `@mariozechner/pi-coding-agent` this bench calls. */
export interface PiCodingAgent {
  SessionManager: {
    open(path: string, sessionDir?: string): { createBranchedSession(leafId: string): string | undefined };
  };
}

/**
 * pi's session manager: what pi's `/fork` does with a persisted session — `SessionManager.open` on
 * the parent file, then `createBranchedSession(entryId)` writes the root-to-entry path as a new file.
 */
export function piPeer(pi: PiCodingAgent): PeerDriver {
  let input: PeerInput | undefined;
  let history: PeerHistory | undefined;
  const random = createRandom(81);
  const forkOnce = async () => {
    if (!input || !history) throw new Error('pi: prepare() first');
    const entryId = history.idAtSeq(input.cut);
    if (entryId === undefined) throw new Error('pi: no entry at the cut');
    const parent = join(input.dir, 'parent.jsonl');
    const dir = input.dir;
    let path: string | undefined;
    const ms = await timeMs(() => {
      path = pi.SessionManager.open(parent, dir).createBranchedSession(entryId);
      return Promise.resolve();
    });
    if (path === undefined) throw new Error('pi: createBranchedSession wrote no file');
    return { ms, bytes: (await stat(path)).size, path };
  };
  return {
    name: 'pi coding agent',
    api: '`SessionManager.open(file).createBranchedSession(entryId)`',
    async prepare(given) {
      input = given;
      await mkdir(given.dir, { recursive: true });
      history = piSession(given.events, uuidFrom(random), '/home/dev/projects/dsh-demo');
      await writeFile(join(given.dir, 'parent.jsonl'), history.text);
      return { parentBytes: Buffer.byteLength(history.text) };
    },
    async fork() {
      const { ms, bytes, path } = await forkOnce();
      await rm(path, { force: true });
      return { ms, bytes };
    },
    async observe() {
      const { path } = await forkOnce();
      const lines = (await readFile(path, 'utf8')).split('\n').filter((line) => line !== '');
      await rm(path, { force: true });
      const last = JSON.parse(lines.at(-1) ?? '{}') as { type?: string; message?: { role?: string; content?: { type?: string }[] } };
      const calls = last.message?.content?.filter((block) => block.type === 'toolCall').length ?? 0;
      return {
        cutAt: 'the assistant message entry that declares the calls (pi does not record a call as started)',
        childEnds: `… ${last.type ?? '?'} (${last.message?.role ?? '?'}, ${String(calls)} \`toolCall\` blocks) — no \`toolResult\` stored (pi-ai inserts "No result provided" when it builds the request); not fsynced`,
        records: `${String(lines.length - 1)} of ${String(history?.records ?? 0)} entries`,
      };
    },
    async dispose() {
      if (input) await rm(input.dir, { recursive: true, force: true });
    },
  };
}
