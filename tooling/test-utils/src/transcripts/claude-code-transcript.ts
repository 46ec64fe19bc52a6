/**
 * A Claude Code session file written the way Claude Code 2.x writes one, for import tests: uuid /
 * parentUuid chains through progress lines, responses split over one line per content block sharing
 * `message.id`, parallel tool results hanging off the line that declared them, snapshots, queue
 * operations, titles, hook summaries, a sidechain line, an image, an unknown line type, and on request
 * a rewind branch, an auto-compaction, an unanswered trailing call, a torn last line and lines out of
 * order (each prompt written after the line that follows it, as interactive 2.1.197 does when typed fast).
 */

/** What to put in the generated file. */
export type ClaudeCodeTranscriptOptions = {
  /** Turns on the main line (default 12). */
  turns?: number;
  /** Rewind before this turn (1-based): the original turn stays as an abandoned branch written first. */
  branchAtTurn?: number;
  /** Auto-compact inside this turn (1-based), after its first tool result. */
  compactInTurn?: number;
  /** End with a response whose tool calls have no result. */
  endMidCall?: boolean;
  /** Append half a line without a newline. */
  tornTail?: boolean;
  sessionId?: string;
  /** Write a subagent's own file (`subagents/agent-<agentId>.jsonl`): every line `isSidechain` with this `agentId`. */
  agentId?: string;
  /** End with a turn whose Task call ran the subagent `agentId` (its result's `toolUseResult.agentId`). */
  spawnsAgent?: string;
  /** Write each user prompt after the line that follows it (its chain is then not the file's order). */
  outOfOrder?: boolean;
  /** Also write the line types current versions add (`mode`, `api-request`, `cost-state`, …), none of which dsh needs. */
  currentLineTypes?: boolean;
};

/** The line types Claude Code 2.1.3xx writes that hold nothing for dsh (SPEC §18). */
export const CLAUDE_CODE_QUIET_LINE_TYPES = [
  'mode',
  'api-request',
  'api-request-blob',
  'api-request-shape',
  'atis-latch',
  'tools-used',
  'cost-state',
  'api-request-route',
  'attachment',
  'permission-mode',
  'ai-title',
  'last-prompt',
] as const;

const TOOLS = [
  {
    name: 'Read',
    input: (n: number) => ({ file_path: `/work/app/src/module-${n}.ts` }),
    result: (n: number) => `     1\texport const value${n} = ${n};\n     2\t`,
  },
  {
    name: 'Grep',
    input: (n: number) => ({ pattern: `value${n}`, path: '/work/app/src', output_mode: 'content' }),
    result: (n: number) => `src/module-${n}.ts:1:export const value${n} = ${n};`,
  },
  {
    name: 'Bash',
    input: (n: number) => ({ command: `npm test -- module-${n}`, description: `Run the tests of module ${n}` }),
    result: (n: number) => `> app@1.0.0 test\n> vitest run module-${n}\n\n ✓ module-${n}.test.ts (3 tests)`,
  },
  {
    name: 'Edit',
    input: (n: number) => ({ file_path: `/work/app/src/module-${n}.ts`, old_string: `= ${n};`, new_string: `= ${n + 1};` }),
    result: (n: number) => `The file /work/app/src/module-${n}.ts has been updated.`,
  },
  {
    name: 'TodoWrite',
    input: (n: number) => ({ todos: [{ content: `Fix module ${n}`, status: 'in_progress', activeForm: `Fixing module ${n}` }] }),
    result: () => 'Todos have been modified successfully.',
  },
  {
    name: 'mcp__github__get_issue',
    input: (n: number) => ({ owner: 'acme', repo: 'app', issue_number: n }),
    result: (n: number) => JSON.stringify({ number: n, title: `Issue ${n}` }),
  },
] as const;

/** A generated Claude Code transcript and the facts a test checks it against. */
export type ClaudeCodeTranscript = { text: string; sessionId: string; lineCount: number };

/** Writes a Claude Code session file (see the module comment); deterministic for the same options. */
export function claudeCodeTranscript(options: ClaudeCodeTranscriptOptions = {}): ClaudeCodeTranscript {
  const sessionId = options.sessionId ?? '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d';
  const turns = options.turns ?? 12;
  const lines: string[] = [];
  let counter = 0;
  let clock = Date.UTC(2026, 10, 20, 9, 0, 0);
  const uuid = () => `00000000-0000-4000-8000-${(++counter).toString(16).padStart(12, '0')}`;
  const stamp = () => new Date((clock += 1700)).toISOString();
  const base = (parentUuid: string | null) => ({
    parentUuid,
    isSidechain: options.agentId !== undefined,
    ...(options.agentId === undefined ? {} : { agentId: options.agentId }),
    userType: 'external',
    cwd: '/work/app',
    sessionId,
    version: '2.1.39',
    gitBranch: 'main',
  });
  const write = (value: object) => lines.push(JSON.stringify(value));
  // Where each user prompt stands, for `outOfOrder`.
  const promptLines: number[] = [];
  let messageNumber = 0;
  let toolNumber = 0;

  write({ type: 'summary', summary: 'Fix the flaky module tests', leafUuid: '00000000-0000-4000-8000-ffffffffffff' });
  write({
    type: 'file-history-snapshot',
    messageId: 'snap-0',
    snapshot: { messageId: 'snap-0', trackedFileBackups: {}, timestamp: stamp() },
    isSnapshotUpdate: false,
  });
  write({ type: 'permission-mode', permissionMode: 'default', sessionId });

  const progress = (parent: string, toolUseID: string): string => {
    const id = uuid();
    write({
      ...base(parent),
      type: 'progress',
      data: { type: 'hook_progress', hookEvent: 'PreToolUse', hookName: 'PreToolUse:Bash', command: 'lint-hook' },
      parentToolUseID: toolUseID,
      toolUseID,
      timestamp: stamp(),
      uuid: id,
    });
    return id;
  };

  const prompt = (parent: string | null, text: string | object[]): string => {
    const id = uuid();
    promptLines.push(lines.length);
    write({
      ...base(parent),
      type: 'user',
      message: { role: 'user', content: text },
      uuid: id,
      timestamp: stamp(),
      permissionMode: 'default',
    });
    return id;
  };

  /** One model response over several lines; returns the last line's uuid and the calls it declared. */
  const response = (
    parent: string,
    blocks: object[],
    stop: 'tool_use' | 'end_turn',
  ): { last: string; calls: { id: string; line: string; tool: (typeof TOOLS)[number]; n: number }[] } => {
    const messageId = `msg_01Fixture${(++messageNumber).toString().padStart(14, '0')}`;
    const requestId = `req_011Fixture${messageNumber.toString().padStart(12, '0')}`;
    let last = parent;
    const calls: { id: string; line: string; tool: (typeof TOOLS)[number]; n: number }[] = [];
    blocks.forEach((block, index) => {
      const id = uuid();
      write({
        ...base(last),
        message: {
          model: 'claude-opus-4-6',
          id: messageId,
          type: 'message',
          role: 'assistant',
          content: [block],
          stop_reason: index === blocks.length - 1 ? stop : null,
          stop_sequence: null,
          usage: {
            input_tokens: 3 + index,
            cache_creation_input_tokens: 1200,
            cache_read_input_tokens: 18000,
            output_tokens: 40 + index,
            service_tier: 'standard',
          },
        },
        requestId,
        type: 'assistant',
        uuid: id,
        timestamp: stamp(),
      });
      last = id;
      const b = block as { type: string; id?: string; name?: string };
      if (b.type === 'tool_use') {
        const tool = TOOLS.find((t) => t.name === b.name) ?? TOOLS[0];
        calls.push({ id: b.id as string, line: id, tool, n: toolNumber });
        // Hooks run between the declaration and the next line, chaining through progress lines.
        last = progress(id, b.id as string);
      }
    });
    return { last, calls };
  };

  const toolUse = (k: number) => {
    const tool = TOOLS[k % TOOLS.length] as (typeof TOOLS)[number];
    const n = ++toolNumber;
    return {
      type: 'tool_use',
      id: `toolu_01Fx${n.toString().padStart(20, '0')}`,
      name: tool.name,
      input: tool.input(n),
      caller: { type: 'direct' },
    };
  };

  const results = (calls: { id: string; line: string; tool: (typeof TOOLS)[number]; n: number }[], failEvery: number): string => {
    let last = '';
    calls.forEach((call) => {
      const n = Number(call.id.slice(-6));
      const isError = n % failEvery === 0;
      const content = isError
        ? `<tool_use_error>File does not exist: /work/app/src/module-${n}.ts</tool_use_error>`
        : n % 2 === 0
          ? [{ type: 'text', text: call.tool.result(n) }]
          : call.tool.result(n);
      // Each result hangs off the line that declared its call; the chain continues from the last one,
      // so earlier results of a parallel response are structural siblings.
      const id = uuid();
      write({
        ...base(call.line),
        type: 'user',
        message: {
          role: 'user',
          content: [{ tool_use_id: call.id, type: 'tool_result', content, ...(isError ? { is_error: true } : {}) }],
        },
        uuid: id,
        timestamp: stamp(),
        toolUseResult: isError ? `Error: File does not exist` : { type: 'text', file: { filePath: `/work/app/src/module-${n}.ts` } },
        sourceToolAssistantUUID: call.line,
      });
      last = id;
    });
    return last;
  };

  /** One turn: prompt, 1–3 tool steps (some parallel), a final answer; returns the last uuid. */
  const turn = (parent: string | null, t: number, promptText: string | object[]): string => {
    let last = prompt(parent, promptText);
    const steps = 1 + (t % 3);
    for (let s = 0; s < steps; s++) {
      const parallel = (t + s) % 3 === 0 ? 2 : 1;
      const blocks: object[] = [];
      if ((t + s) % 2 === 0)
        blocks.push({
          type: 'thinking',
          thinking: `Step ${s + 1} of turn ${t}: check module ${t}.`,
          signature: `EqkBCkYIBxgCKkD${t}${s}sig==`,
        });
      if ((t + s) % 5 === 0) blocks.push({ type: 'redacted_thinking', data: `EmwKAhgBEgy${t}${s}redacted=` });
      blocks.push({ type: 'text', text: `Looking at module ${t}, step ${s + 1}.` });
      for (let p = 0; p < parallel; p++) blocks.push(toolUse(t + s + p));
      const declared = response(last, blocks, 'tool_use');
      last = results(declared.calls, 7);
      if (options.compactInTurn === t && s === 0) {
        const boundary = uuid();
        write({
          ...base(null),
          logicalParentUuid: '00000000-0000-4000-8000-0000deadbeef',
          type: 'system',
          subtype: 'compact_boundary',
          content: 'Conversation compacted',
          isMeta: false,
          timestamp: stamp(),
          uuid: boundary,
          level: 'info',
          compactMetadata: { trigger: 'auto', preTokens: 170251 },
        });
        const summary = uuid();
        write({
          ...base(boundary),
          type: 'user',
          message: {
            role: 'user',
            content: `This session is being continued from a previous conversation that ran out of context. Summary: turns 1–${t} fixed modules 1–${t}.`,
          },
          isVisibleInTranscriptOnly: true,
          isCompactSummary: true,
          uuid: summary,
          timestamp: stamp(),
        });
        last = summary;
      }
    }
    const answer = response(last, [{ type: 'text', text: `Turn ${t} is done: module ${t} passes.` }], 'end_turn');
    last = answer.last;
    const hook = uuid();
    write({
      ...base(last),
      type: 'system',
      subtype: 'stop_hook_summary',
      hookCount: 1,
      hookInfos: [{ command: 'lint-hook' }],
      hookErrors: [],
      preventedContinuation: false,
      stopReason: '',
      hasOutput: false,
      level: 'suggestion',
      timestamp: stamp(),
      uuid: hook,
      toolUseID: 'stop-hook',
    });
    const duration = uuid();
    write({
      ...base(hook),
      type: 'system',
      subtype: 'turn_duration',
      durationMs: 48000 + t,
      timestamp: stamp(),
      uuid: duration,
      isMeta: false,
    });
    write({
      type: 'file-history-snapshot',
      messageId: `snap-${t}`,
      snapshot: { messageId: `snap-${t}`, trackedFileBackups: {}, timestamp: stamp() },
      isSnapshotUpdate: false,
    });
    return duration;
  };

  let last: string | null = null;
  for (let t = 1; t <= turns; t++) {
    if (t === 1) {
      write({ type: 'queue-operation', operation: 'dequeue', timestamp: stamp(), sessionId });
      last = turn(null, t, 'Fix the flaky tests in src/, one module per turn.');
      continue;
    }
    if (t === 3) write({ type: 'ai-title', aiTitle: 'Fixing flaky module tests', sessionId });
    if (t === 4) {
      // A sidechain line (older versions wrote subagent lines into the main file) and a future line type.
      write({
        ...base(last),
        isSidechain: true,
        agentId: 'a1b2c3d',
        type: 'user',
        message: { role: 'user', content: 'Explore src/' },
        uuid: uuid(),
        timestamp: stamp(),
      });
      write({ type: 'future-line-type', sessionId, payload: { anything: true } });
    }
    if (options.branchAtTurn === t) {
      // The abandoned attempt: written first, then the user rewinds to before it and asks again.
      turn(last, t, `Try module ${t} the quick way.`);
    }
    const text =
      t === 5
        ? [
            { type: 'text', text: `Here is the failing screenshot for module ${t}.` },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ]
        : `Now module ${t}, carefully.`;
    last = turn(last, t, text);
  }
  if (options.currentLineTypes === true) {
    for (const type of CLAUDE_CODE_QUIET_LINE_TYPES)
      write({ type, sessionId, timestamp: stamp(), ...(type === 'ai-title' ? { aiTitle: 'Fixing flaky module tests' } : {}) });
  }
  if (options.spawnsAgent !== undefined && last !== null) {
    const ask = prompt(last, 'Explore src/ with a subagent and report.');
    const callId = 'toolu_01FxTask0000000000000001';
    const { calls, last: declared } = response(
      ask,
      [
        {
          type: 'tool_use',
          id: callId,
          name: 'Task',
          input: { description: 'Explore src', prompt: 'Explore src/ and report.', subagent_type: 'Explore' },
        },
      ],
      'tool_use',
    );
    const id = uuid();
    write({
      ...base(calls[0]?.line ?? declared),
      type: 'user',
      message: {
        role: 'user',
        content: [{ tool_use_id: callId, type: 'tool_result', content: [{ type: 'text', text: 'src/ holds 12 modules.' }] }],
      },
      uuid: id,
      timestamp: stamp(),
      toolUseResult: {
        status: 'completed',
        prompt: 'Explore src/ and report.',
        agentId: options.spawnsAgent,
        content: [{ type: 'text', text: 'src/ holds 12 modules.' }],
      },
    });
    last = response(id, [{ type: 'text', text: 'The subagent found 12 modules.' }], 'end_turn').last;
  }
  if (options.endMidCall === true) {
    const open = prompt(last, 'One more: run the full suite and edit what fails.');
    response(open, [{ type: 'text', text: 'Running the suite and editing.' }, toolUse(2), toolUse(3)], 'tool_use');
  }
  if (options.outOfOrder === true)
    for (const at of promptLines) {
      if (at + 1 >= lines.length) continue;
      [lines[at], lines[at + 1]] = [lines[at + 1] as string, lines[at] as string];
    }
  let text = `${lines.join('\n')}\n`;
  if (options.tornTail === true)
    text += '{"parentUuid":"00000000-0000-4000-8000-000000000001","isSidechain":false,"type":"assistant","message":{"role":"assis';
  return { text, sessionId, lineCount: lines.length };
}
