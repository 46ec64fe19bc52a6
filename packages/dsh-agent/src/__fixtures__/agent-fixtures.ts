/**
 * @module __fixtures__/agent-fixtures
 * Test helpers for the agent loop: tools that count their invocations, gates, small readers, the
 * error a promise rejects with (or its `AgentError` code) and a tool context for calling a tool directly.
 */
import { z } from 'zod';
import type { SessionEvent } from 'dsh-codec';
import { AgentError, createScriptedModel, defineTool, type Model, type Tool, type ToolContext } from 'dsh-agent';

export type Invocation = { name: string; callId: string; args: unknown };

/** `lookup` (read-only), `touch` (idempotent) and `save` (side-effect); every body run is recorded. */
export function countingTools(): { tools: Tool[]; invocations: Invocation[] } {
  const invocations: Invocation[] = [];
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look a key up.',
    input: z.strictObject({ key: z.string() }),
    effect: 'read-only',
    run: (args, ctx) => {
      invocations.push({ name: 'lookup', callId: ctx.callId, args });
      return `value of ${args.key}`;
    },
  });
  const touch = defineTool({
    name: 'touch',
    description: 'Mark a key as seen.',
    input: z.strictObject({ key: z.string() }),
    effect: 'idempotent',
    run: (args, ctx) => {
      invocations.push({ name: 'touch', callId: ctx.callId, args });
      return `touched ${args.key}`;
    },
  });
  const save = defineTool({
    name: 'save',
    description: 'Save a value under a key.',
    input: z.strictObject({ key: z.string(), value: z.string() }),
    effect: 'side-effect',
    run: (args, ctx) => {
      invocations.push({ name: 'save', callId: ctx.callId, args });
      return `saved ${args.key}`;
    },
  });
  return { tools: [lookup, touch, save] as Tool[], invocations };
}

/** A promise with its resolver, to hold a model or a tool until the test lets it go. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/**
 * A scripted model whose first request waits until `hold.open()`: lets a test act while a turn is
 * provably running. Later requests answer at once.
 */
export function heldScriptedModel(responses: Parameters<typeof createScriptedModel>[0]): { model: Model; hold: ReturnType<typeof gate> } {
  const hold = gate();
  const script = createScriptedModel(responses);
  const model: Model = {
    name: 'held',
    complete: async (request) => {
      if (script.requests.length === 0) await hold.promise;
      return script.complete(request);
    },
  };
  return { model, hold };
}

/** Resolves when `predicate` holds, polling each macrotask (at most `limit` times). */
export async function until(predicate: () => boolean, limit = 2000): Promise<void> {
  for (let attempt = 0; attempt < limit; attempt += 1) {
    if (predicate()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('condition not reached');
}

/** The types of events from `from` on. */
export function typesFrom(events: readonly SessionEvent[], from: number): string[] {
  return events.slice(from).map((event) => event.type);
}

/** The data of the events of one type. */
export function dataOf<T>(events: readonly SessionEvent[], type: string): T[] {
  return events.filter((event) => event.type === type).map((event) => event.data as T);
}

/** The code of the `AgentError` `promise` rejects with: undefined when it resolves, `'not an AgentError'` for any other error. */
export async function agentErrorCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return AgentError.is(error) ? error.code : 'not an AgentError';
  }
}

/** What `promise` rejects with; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The context a tool body gets, for calling a tool directly in `cwd` (turn 1, step 1, a fresh signal). */
export function toolContext(cwd: string): ToolContext {
  return { cwd, signal: new AbortController().signal, sessionId: 's', callId: 'c', turn: 1, step: 1 };
}
