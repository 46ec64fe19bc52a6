import { mkdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { timeMs } from '../harness/measure-rounds.js';
import { createRandom } from '../generate/create-random.js';
import { describeClaudeChild } from './describe-claude-child.js';
import { claudeTranscript, uuidFrom, type PeerHistory } from './peer-histories.js';
import type { PeerDriver, PeerInput } from './peer-driver.js';

/** The part of `@anthropic-ai/claude-agent-sdk` this bench calls. */
export interface ClaudeAgentSdk {
  forkSession(sessionId: string, options?: { dir?: string; upToMessageId?: string; title?: string }): Promise<{ sessionId: string }>;
}

/**
 * The Claude Agent SDK's offline `forkSession(sessionId, { dir, upToMessageId })`, over a transcript
 * stored where Claude Code keeps it: `$CLAUDE_CONFIG_DIR/projects/<sanitised cwd>/<session>.jsonl`.
 * The runner points `CLAUDE_CONFIG_DIR` at a temporary directory before the SDK is loaded.
 */
export function claudeSdkPeer(sdk: ClaudeAgentSdk, configDir: string): PeerDriver {
  let input: PeerInput | undefined;
  let history: PeerHistory | undefined;
  let projectCwd = '';
  let projectDir = '';
  let parentId = '';
  const random = createRandom(71);
  const forkOnce = async () => {
    if (!input || !history) throw new Error('claude sdk: prepare() first');
    const cutUuid = history.idAtSeq(input.cut);
    if (cutUuid === undefined) throw new Error('claude sdk: no line at the cut');
    let childId = '';
    const ms = await timeMs(async () => {
      childId = (await sdk.forkSession(parentId, { dir: projectCwd, upToMessageId: cutUuid })).sessionId;
    });
    const path = join(projectDir, `${childId}.jsonl`);
    return { ms, bytes: (await stat(path)).size, path };
  };
  return {
    name: 'Claude Agent SDK',
    api: '`forkSession(id, { dir, upToMessageId })`',
    async prepare(given) {
      input = given;
      projectCwd = join(given.dir, 'project');
      await mkdir(projectCwd, { recursive: true });
      projectCwd = await realpath(projectCwd);
      projectDir = join(configDir, 'projects', projectCwd.replace(/[^a-zA-Z0-9]/g, '-'));
      await mkdir(projectDir, { recursive: true });
      parentId = uuidFrom(random);
      history = claudeTranscript(given.events, parentId, projectCwd);
      await writeFile(join(projectDir, `${parentId}.jsonl`), history.text);
      return { parentBytes: Buffer.byteLength(history.text) };
    },
    async fork() {
      const { ms, bytes, path } = await forkOnce();
      await rm(path, { force: true });
      return { ms, bytes };
    },
    async observe() {
      const { path } = await forkOnce();
      const child = await describeClaudeChild(path);
      await rm(path, { force: true });
      return {
        cutAt: "the transcript line of the step's last `tool_use` block (`upToMessageId`)",
        childEnds: `${child.ends} — no \`tool_result\` stored; not fsynced`,
        records: `${String(child.lines)} of ${String(history?.records ?? 0)} lines (every uuid remapped)`,
      };
    },
    async dispose() {
      if (input) await rm(input.dir, { recursive: true, force: true });
      if (projectDir !== '') await rm(projectDir, { recursive: true, force: true });
    },
  };
}
