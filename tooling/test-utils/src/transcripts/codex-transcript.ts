/**
 * An OpenAI Codex rollout written the way Codex CLI 0.1xx writes one, for import tests: the
 * `{timestamp, type, payload}` envelope with session_meta, turn_context, task brackets, developer and
 * AGENTS.md messages, reasoning, function / custom / local-shell calls and their outputs, web searches,
 * token counts, an aborted turn, a compaction, an unknown item, and on request the older bare layout,
 * an unanswered trailing call and a torn last line.
 */

/** What to put in the generated rollout. */
export type CodexTranscriptOptions = {
  turns?: number;
  /** The mid-2025 layout: a bare header line, items without an envelope, `record_type` state lines. */
  legacy?: boolean;
  compactAfterTurn?: number;
  endMidCall?: boolean;
  tornTail?: boolean;
  sessionId?: string;
  /**
   * A fork rollout as Codex 0.154+ writes one: `session_meta.forked_from_id` and `history_base`
   * naming the parent rollout and the ordinal its inherited records end before; the file then holds
   * only the fork's own records, with ordinals continuing from there.
   */
  forkOf?: { threadId: string; endOrdinalExclusive: number };
  /** A subagent thread: `session_meta.source.subagent.thread_spawn.parent_thread_id`. */
  subagentOf?: string;
  /** Give every line its `ordinal` (0-based, or from `forkOf.endOrdinalExclusive`), as paginated rollouts do. */
  ordinals?: boolean;
  /** Also write the line types current versions add (`world_state`, `token_usage_record`). */
  currentLineTypes?: boolean;
};

/** Writes a Codex rollout (see the module comment); deterministic for the same options. */
export function codexTranscript(options: CodexTranscriptOptions = {}): { text: string; sessionId: string } {
  const sessionId = options.sessionId ?? '019e2000-1111-7222-8333-444455556666';
  let ordinal = options.forkOf?.endOrdinalExclusive ?? 0;
  const ordinals = options.ordinals === true || options.forkOf !== undefined;
  const turns = options.turns ?? 10;
  const legacy = options.legacy === true;
  const lines: string[] = [];
  let clock = Date.UTC(2026, 10, options.forkOf === undefined ? 21 : 22, 8, 0, 0);
  const stamp = () => new Date((clock += 900)).toISOString();
  const line = (type: string, payload: object) => {
    if (legacy) {
      if (type === 'response_item') lines.push(JSON.stringify(payload));
      return;
    }
    lines.push(JSON.stringify({ timestamp: stamp(), ...(ordinals ? { ordinal: ordinal++ } : {}), type, payload }));
  };
  let call = 0;

  if (legacy) lines.push(JSON.stringify({ id: sessionId, timestamp: stamp(), instructions: 'You are Codex.', git: { branch: 'main' } }));
  const fork =
    options.forkOf === undefined
      ? {}
      : {
          forked_from_id: options.forkOf.threadId,
          history_base: {
            thread_id: options.forkOf.threadId,
            end_ordinal_exclusive: options.forkOf.endOrdinalExclusive,
            end_byte_offset: 0,
          },
        };
  const source =
    options.subagentOf === undefined
      ? 'cli'
      : {
          subagent: {
            thread_spawn: {
              parent_thread_id: options.subagentOf,
              depth: 1,
              agent_path: null,
              agent_nickname: 'Socrates',
              agent_role: 'implementer',
            },
          },
        };
  line('session_meta', {
    id: sessionId,
    ...fork,
    timestamp: stamp(),
    cwd: '/work/app',
    originator: 'codex_cli_rs',
    cli_version: ordinals ? '0.169.0' : '0.125.0',
    source,
    model_provider: 'openai',
    base_instructions: { text: 'You are Codex, a coding agent.' },
  });
  if (options.currentLineTypes === true) {
    line('world_state', { cwd: '/work/app', git: { branch: 'main' } });
    line('token_usage_record', { input_tokens: 100, output_tokens: 10 });
  }
  for (let t = 1; t <= turns; t++) {
    const turnId = `019e2000-aaaa-7000-8000-${t.toString().padStart(12, '0')}`;
    line('event_msg', { type: 'task_started', turn_id: turnId, model_context_window: 258400 });
    if (t === 1) {
      line('response_item', {
        type: 'message',
        role: 'developer',
        content: [
          { type: 'input_text', text: '<permissions instructions>\nsandbox_mode is workspace-write.\n</permissions instructions>' },
        ],
      });
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: '# AGENTS.md instructions for /work/app\n\n<INSTRUCTIONS>\nRun npm test before you finish.\n</INSTRUCTIONS>',
          },
        ],
      });
    }
    line('turn_context', {
      turn_id: turnId,
      cwd: '/work/app',
      approval_policy: 'on-request',
      sandbox_policy: { type: 'workspace-write' },
      model: t > turns / 2 ? 'gpt-5.5' : 'gpt-5.4',
      effort: 'high',
    });
    const prompt = `Turn ${t}: make module ${t} pass its tests.`;
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] });
    line('event_msg', { type: 'user_message', message: prompt, images: [], local_images: [], text_elements: [] });
    const steps = 1 + (t % 3);
    for (let s = 0; s < steps; s++) {
      line('response_item', {
        type: 'reasoning',
        id: `rs_${t}_${s}`,
        summary: [{ type: 'summary_text', text: `**Checking module ${t}**` }],
        content: null,
        encrypted_content: `gAAAAABfixture${t}${s}`,
      });
      if (s === 0) {
        line('event_msg', { type: 'agent_message', message: `Looking at module ${t}.`, phase: 'commentary' });
        line('response_item', {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: `Looking at module ${t}.` }],
          phase: 'commentary',
        });
      }
      const kind = (t + s) % 4;
      const ids: string[] = [];
      const parallel = (t + s) % 3 === 0 ? 2 : 1;
      for (let p = 0; p < parallel; p++) {
        const id = `call_Fx${(++call).toString().padStart(20, '0')}`;
        ids.push(id);
        if (kind === 1)
          line('response_item', {
            type: 'custom_tool_call',
            status: 'completed',
            call_id: id,
            name: 'apply_patch',
            input: `*** Begin Patch\n*** Update File: src/module-${t}.ts\n@@\n-export const value = ${t};\n+export const value = ${t + 1};\n*** End Patch\n`,
          });
        else if (kind === 2)
          line('response_item', {
            type: 'local_shell_call',
            call_id: id,
            status: 'completed',
            action: {
              type: 'exec',
              command: ['bash', '-lc', `npm test -- module-${t}`],
              timeout_ms: 10000,
              working_directory: '/work/app',
            },
          });
        else if (kind === 3)
          line('response_item', {
            type: 'function_call',
            name: 'update_plan',
            arguments: JSON.stringify({ plan: [{ step: `module ${t}`, status: 'in_progress' }] }),
            call_id: id,
          });
        else
          line('response_item', {
            type: 'function_call',
            name: 'exec_command',
            arguments: `{"cmd": "sed -n '1,80p' src/module-${t}.ts", "workdir": "/work/app", "yield_time_ms": 1000}`,
            call_id: id,
          });
      }
      if (t === 2 && s === 0)
        line('response_item', { type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'vitest flaky timers' } });
      line('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: 18000 + t, output_tokens: 150 } } });
      for (const id of ids) {
        const n = Number(id.slice(-6));
        if (kind === 1)
          line('response_item', {
            type: 'custom_tool_call_output',
            call_id: id,
            output: JSON.stringify({
              output: `Success. Updated the following files:\nM src/module-${t}.ts\n`,
              metadata: { exit_code: 0, duration_seconds: 0.1 },
            }),
          });
        else if (kind === 2)
          line('response_item', {
            type: 'function_call_output',
            call_id: id,
            output: { content: n % 5 === 0 ? 'npm ERR! Test failed.' : ` ✓ module-${t}.test.ts`, success: n % 5 !== 0 },
          });
        else
          line('response_item', {
            type: 'function_call_output',
            call_id: id,
            output: `Chunk ID: ${n}\nWall time: 0.0100 seconds\nProcess exited with code 0\nOriginal token count: 12\nOutput:\nexport const value = ${t};\n`,
          });
        line('event_msg', { type: 'exec_command_end', call_id: id, turn_id: turnId, exit_code: 0 });
      }
    }
    if (t === 3) {
      // The user interrupted this turn after its tools: Codex records turn_aborted.
      line('event_msg', { type: 'turn_aborted', turn_id: turnId, reason: 'interrupted' });
      continue;
    }
    if (t === 4) line('response_item', { type: 'future_item_kind', id: 'x1' });
    line('event_msg', { type: 'agent_message', message: `Module ${t} passes.`, phase: 'final_answer' });
    line('response_item', {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: `Module ${t} passes.` }],
      phase: 'final_answer',
    });
    line('event_msg', { type: 'task_complete', turn_id: turnId, last_agent_message: `Module ${t} passes.` });
    if (legacy) lines.push(JSON.stringify({ record_type: 'state' }));
    if (options.compactAfterTurn === t && !legacy)
      line('compacted', { message: `Summary of turns 1–${t}: modules 1–${t} pass.`, replacement_history: [] });
  }
  if (options.endMidCall === true) {
    line('event_msg', { type: 'task_started', turn_id: 'final' });
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Run the whole suite.' }] });
    line('response_item', {
      type: 'function_call',
      name: 'shell',
      arguments: '{"command":["npm","test"]}',
      call_id: 'call_FxOpen0000000000000001',
    });
  }
  let text = `${lines.join('\n')}\n`;
  if (options.tornTail === true)
    text += '{"timestamp":"2026-11-21T09:00:00.000Z","type":"response_item","payload":{"type":"function_call_out';
  return { text, sessionId };
}
