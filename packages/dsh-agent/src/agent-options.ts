/**
 * @module agent-options
 * The options of `new Agent()` and how they are checked.
 */
import type { Session } from 'dsh-session';
import { AgentError } from './agent-error.js';
import type { CheckpointStore } from './checkpoint-workspace.js';
import type { Tool } from './define-tool.js';
import type { AgentDelta } from './delta-fan-out.js';
import type { Model } from './model.js';

/** Options of `new Agent()`. Only `session` and `model` are required. */
export type AgentOptions = {
  session: Session;
  model: Model;
  /** Every tool the host offers; the latest `session/config.tools` narrows it (availability). */
  tools?: readonly Tool[];
  /** The system prompt of every model request whose session records none (`agent/system-prompt`). */
  system?: string;
  /**
   * Resolves a model spec recorded in `session/config.model` (e.g. `openai:gpt-4o`) that differs
   * from `model.name`; without it, `model` answers every turn whatever the session recorded.
   */
  resolveModel?: (spec: string) => Promise<Model>;
  /** Model requests per turn before it ends with `max-steps` (default 25). */
  maxSteps?: number;
  /**
   * Working directory when neither `session/config.cwd` nor the header names one. Without any, the
   * session has no workspace: its tool calls are refused `NO_WORKSPACE` (never the process's cwd).
   */
  cwd?: string;
  /**
   * The workspace store checkpoints go to (SPEC §23): the cwd is captured at each `turn/start` and
   * after each call that is not `read-only`, recorded as `workspace/checkpoint`. Omitted: none taken.
   * A session whose latest `session/config` has `checkpoints: false` takes none either (its choice is stored).
   */
  checkpoints?: CheckpointStore;
  /** Streaming text and reasoning for a live UI; never persisted (same as `subscribeDeltas`). */
  onDelta?: (delta: AgentDelta) => void;
  /** Start turns for input rebuilt from the log right away (default true). */
  autoStart?: boolean;
};

const DEFAULT_MAX_STEPS = 25;

/** `maxSteps` (default 25); `INVALID_OPTION` unless it is an integer ≥ 1. */
export function maxStepsOf(options: Pick<AgentOptions, 'maxSteps'>): number {
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new AgentError('INVALID_OPTION', `expected maxSteps to be an integer ≥ 1, received ${String(maxSteps)}`);
  }
  return maxSteps;
}
