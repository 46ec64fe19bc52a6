/**
 * @module `ClaudeCodeFacts`: what a Claude Code tree's entries say about the session (its id, cwd,
 * creation time, the subagents its calls spawned), read in chain order.
 */
import { asRecord, asString, type SourceLinks } from '../read-transcript.js';
import { timeOf } from '../source-item.js';
import { blocksOf } from './claude-code-blocks.js';

/** What the entries say about the session, read in chain order: `add` each entry. */
export class ClaudeCodeFacts {
  sessionId: string | undefined;
  cwd: string | undefined;
  createdAt: number | undefined;
  /** Task/Agent calls whose result names the subagent they ran (`toolUseResult.agentId`). */
  readonly spawned: Record<string, string> = {};

  add(value: Record<string, unknown>): void {
    this.sessionId ??= asString(value.sessionId);
    this.cwd ??= asString(value.cwd);
    const spawnedAgent = asString(asRecord(value.toolUseResult)?.agentId);
    if (spawnedAgent !== undefined) {
      const callId = blocksOf(asRecord(value.message)?.content).find((block) => block.type === 'tool_result')?.tool_use_id;
      if (typeof callId === 'string') this.spawned[callId] = spawnedAgent;
    }
    // A line written before the one it follows does not date the session.
    this.createdAt ??= timeOf(value.timestamp);
  }

  /** The links these facts and a subagent's own id (`agentId`, of an all-sidechain file) make. */
  links(agentId: string | undefined): SourceLinks {
    const { sessionId, spawned } = this;
    return {
      ...(agentId === undefined ? {} : { agentId, ...(sessionId === undefined ? {} : { mainSourceId: sessionId }) }),
      ...(Object.keys(spawned).length === 0 ? {} : { spawned }),
    };
  }
}
