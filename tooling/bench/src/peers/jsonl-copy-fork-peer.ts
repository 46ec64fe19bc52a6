import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { timeMs } from '../harness/measure-rounds.js';
import { createRandom } from '../generate/create-random.js';
import { copyForkJsonl } from './copy-fork-jsonl.js';
import { describeClaudeChild } from './describe-claude-child.js';
import { claudeTranscript, uuidFrom, type PeerHistory } from './peer-histories.js';
import type { PeerDriver, PeerInput } from './peer-driver.js';

/** The Claude-Code-style JSONL copy-fork written for this bench (`copyForkJsonl`), fsynced. */
export function jsonlCopyForkPeer(): PeerDriver {
  let input: PeerInput | undefined;
  let history: PeerHistory | undefined;
  const random = createRandom(61);
  let children = 0;
  const forkOnce = async () => {
    if (!input || !history) throw new Error('jsonl copy-fork: prepare() first');
    const cutUuid = history.idAtSeq(input.cut);
    if (cutUuid === undefined) throw new Error('jsonl copy-fork: no line at the cut');
    const target = join(input.dir, `child-${String(++children)}.jsonl`);
    const source = join(input.dir, 'parent.jsonl');
    let bytes = 0;
    const ms = await timeMs(async () => {
      bytes = await copyForkJsonl(source, target, cutUuid, uuidFrom(random));
    });
    return { ms, bytes, target };
  };
  return {
    name: 'Claude-Code-style JSONL copy-fork',
    api: '`copyForkJsonl` (written for this bench: parse, rewrite `sessionId`, write, fsync)',
    async prepare(given) {
      input = given;
      await mkdir(given.dir, { recursive: true });
      history = claudeTranscript(given.events, uuidFrom(random), '/home/dev/projects/dsh-demo');
      await writeFile(join(given.dir, 'parent.jsonl'), history.text);
      return { parentBytes: Buffer.byteLength(history.text) };
    },
    async fork() {
      const { ms, bytes, target } = await forkOnce();
      await rm(target, { force: true });
      return { ms, bytes };
    },
    async observe() {
      const { target } = await forkOnce();
      const child = await describeClaudeChild(target);
      await rm(target, { force: true });
      return {
        cutAt: "the transcript line of the step's last `tool_use` block (calls are not recorded as started)",
        childEnds: `${child.ends} — no \`tool_result\` stored (Claude Code patches missing results when it builds the prompt)`,
        records: `${String(child.lines)} of ${String(history?.records ?? 0)} lines`,
      };
    },
    async dispose() {
      if (input) await rm(input.dir, { recursive: true, force: true });
    },
  };
}
