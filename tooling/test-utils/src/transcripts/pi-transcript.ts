/**
 * A pi session file written the way pi's session manager writes one, for import tests: the session
 * header, then entries — messages (user, assistant with thinking and tool calls, toolResult,
 * bashExecution), model and thinking-level changes, custom and custom_message entries, labels, a
 * compaction — linked by `id`/`parentId` (versions 2 and 3) or in file order (version 1). On request
 * a `/tree` branch with its branch_summary, an unanswered trailing call and a torn last line.
 */

/** What to put in the generated session. */
export type PiTranscriptOptions = {
  turns?: number;
  version?: 1 | 2 | 3;
  /** Navigate back to the end of this turn and continue from there (v2/v3 only). */
  branchAfterTurn?: number;
  compactAfterTurn?: number;
  endMidCall?: boolean;
  tornTail?: boolean;
};

const TOOLS = ['read', 'bash', 'edit', 'grep', 'write', 'subagent'] as const;

/** Writes a pi session (see the module comment); deterministic for the same options. */
export function piTranscript(options: PiTranscriptOptions = {}): { text: string; sessionId: string } {
  const version = options.version ?? 3;
  const turns = options.turns ?? 10;
  const sessionId = '019e3000-2222-7333-8444-555566667777';
  const lines: string[] = [];
  let clock = Date.UTC(2026, 10, 22, 7, 0, 0);
  const stamp = () => new Date((clock += 1100)).toISOString();
  let counter = 0;
  // A holder, so closures' writes are seen by the flow analysis.
  const state: { leaf: string | null } = { leaf: null };
  const keys: string[] = [];
  /** Writes one entry; returns its id (v2/v3) or its 0-based line index (v1, as firstKeptEntryIndex counts). */
  const entry = (value: object, parent: string | null = state.leaf): string => {
    if (version === 1) {
      lines.push(JSON.stringify({ ...value, timestamp: stamp() }));
      const key = String(lines.length - 1);
      keys.push(key);
      state.leaf = key;
      return key;
    }
    const id = (++counter).toString(16).padStart(8, '0');
    lines.push(JSON.stringify({ ...value, id, parentId: parent, timestamp: stamp() }));
    keys.push(id);
    state.leaf = id;
    return id;
  };
  const header =
    version === 1
      ? {
          type: 'session',
          id: sessionId,
          timestamp: stamp(),
          cwd: '/work/app',
          provider: 'anthropic',
          modelId: 'claude-opus-4-5',
          thinkingLevel: 'off',
        }
      : { type: 'session', version, id: sessionId, timestamp: stamp(), cwd: '/work/app' };
  lines.push(JSON.stringify(header));
  if (version !== 1) entry({ type: 'model_change', provider: 'anthropic', modelId: 'claude-opus-4-5' }, null);
  entry({ type: 'thinking_level_change', thinkingLevel: 'medium' });
  let call = 0;
  const message = (m: object) => entry({ type: 'message', message: { ...m, timestamp: clock } });

  const turn = (t: number): void => {
    message({
      role: 'user',
      content:
        t === 2
          ? [
              { type: 'text', text: `Turn ${t}: compare with this screenshot.` },
              { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
            ]
          : [{ type: 'text', text: `Turn ${t}: fix module ${t}.` }],
    });
    if (t % 4 === 0)
      entry({
        type: 'custom_message',
        customType: 'enriched-prompt',
        content: [{ type: 'text', text: `Context for turn ${t}: module ${t} is flaky.` }],
        display: false,
        details: {},
      });
    const steps = 1 + (t % 3);
    for (let s = 0; s < steps; s++) {
      const parallel = (t + s) % 3 === 0 ? 2 : 1;
      const calls = Array.from({ length: parallel }, (_, p) => {
        const n = ++call;
        const name = TOOLS[(t + s + p) % TOOLS.length] as string;
        return {
          type: 'toolCall',
          id: `toolu_01Pi${n.toString().padStart(18, '0')}`,
          name,
          arguments: name === 'bash' ? { command: `npm test -- module-${t}` } : { path: `src/module-${t}.ts` },
        };
      });
      message({
        role: 'assistant',
        content: [
          ...((t + s) % 2 === 0 ? [{ type: 'thinking', thinking: `Checking module ${t}.`, thinkingSignature: `sig${t}${s}` }] : []),
          ...((t + s) % 5 === 0
            ? [{ type: 'thinking', thinking: '[Reasoning redacted]', thinkingSignature: `EmwKredacted${t}${s}`, redacted: true }]
            : []),
          { type: 'text', text: `Step ${s + 1} of turn ${t}.` },
          ...calls,
        ],
        api: 'anthropic-messages',
        provider: 'anthropic',
        model: 'claude-opus-4-5',
        usage: {
          input: 100 + t,
          output: 20 + s,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 120,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: 'toolUse',
      });
      for (const c of calls) {
        const n = Number(c.id.slice(-6));
        message({
          role: 'toolResult',
          toolCallId: c.id,
          toolName: c.name,
          content: [
            { type: 'text', text: n % 6 === 0 ? `Error: ENOENT: no such file src/module-${t}.ts` : `export const value${t} = ${n};` },
          ],
          details: {},
          isError: n % 6 === 0,
        });
      }
    }
    if (t === 3) {
      // The user pressed Escape: the response was aborted, the turn ends there.
      message({
        role: 'assistant',
        content: [{ type: 'text', text: 'Let me also' }],
        api: 'anthropic-messages',
        provider: 'anthropic',
        model: 'claude-opus-4-5',
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 },
        stopReason: 'aborted',
        errorMessage: 'Request was aborted.',
      });
      return;
    }
    message({
      role: 'assistant',
      content: [{ type: 'text', text: `Module ${t} passes.` }],
      api: 'anthropic-messages',
      provider: 'anthropic',
      model: 'claude-opus-4-5',
      usage: { input: 50, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 60 },
      stopReason: 'stop',
    });
    entry({ type: 'custom', customType: 'agent_end', data: { turn: t } });
    if (t === 5)
      message({
        role: 'bashExecution',
        command: 'git status --short',
        output: ` M src/module-${t}.ts\n`,
        exitCode: 0,
        cancelled: false,
        truncated: false,
      });
    if (t === 6) entry({ type: 'future_entry_kind', data: {} });
    if (t === 7 && version !== 1) entry({ type: 'label', targetId: keys[3], label: 'checkpoint' });
    if (t === 7 && version !== 1) entry({ type: 'session_info', name: 'module fixes' });
  };

  let branchPoint: string | null = null;
  for (let t = 1; t <= turns; t++) {
    if (t === 6) entry({ type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
    turn(t);
    if (options.branchAfterTurn === t && version !== 1) branchPoint = state.leaf;
    if (options.compactAfterTurn === t) {
      const keep = keys[Math.floor(keys.length * 0.6)] as string;
      entry(
        version === 1
          ? {
              type: 'compaction',
              summary: `## Goal\nFix modules.\n\n## Done\nModules 1–${t}.`,
              firstKeptEntryIndex: Number(keep),
              tokensBefore: 150000,
            }
          : {
              type: 'compaction',
              summary: `## Goal\nFix modules.\n\n## Done\nModules 1–${t}.`,
              firstKeptEntryId: keep,
              tokensBefore: 150000,
            },
      );
    }
  }
  if (branchPoint !== null) {
    // /tree back to the branch point, with a summary of the abandoned path, and carry on from there.
    entry(
      {
        type: 'branch_summary',
        fromId: state.leaf,
        summary: 'The abandoned path tried to rewrite every module at once; it broke the build.',
      },
      branchPoint,
    );
    turn(turns + 1);
  }
  if (options.endMidCall === true) {
    message({ role: 'user', content: [{ type: 'text', text: 'Run everything once more.' }] });
    message({
      role: 'assistant',
      content: [{ type: 'toolCall', id: 'toolu_01PiOpen000000000001', name: 'bash', arguments: { command: 'npm test' } }],
      api: 'anthropic-messages',
      provider: 'anthropic',
      model: 'claude-opus-4-5',
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 },
      stopReason: 'toolUse',
    });
  }
  let text = `${lines.join('\n')}\n`;
  if (options.tornTail === true) text += '{"type":"message","id":"ffffffff","parentId":"0000';
  return { text, sessionId };
}
