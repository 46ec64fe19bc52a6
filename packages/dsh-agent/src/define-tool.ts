/**
 * @module define-tool
 * The `Tool` interface: a name, a description, a zod schema for its arguments, a declared
 * `effect` (what re-running it risks), and `run()`.
 */
import type { z } from 'zod';

/** What a tool declares about running it again: nothing changes, same outcome, or side effects. */
export type DeclaredToolEffect = 'read-only' | 'idempotent' | 'side-effect';

/** What a tool body gets besides its arguments. `signal` fires when the turn is cancelled. */
export type ToolContext = {
  /** The session's working directory (absolute); file tools must stay inside it. */
  cwd: string;
  signal: AbortSignal;
  sessionId: string;
  callId: string;
  turn: number;
  step: number;
};

/** A tool's answer: text, or text flagged as an error the model should see as such. */
export type ToolOutput = string | { text: string; isError?: boolean };

/**
 * A tool the model may call. Arguments that fail `input` become an error result (the body never
 * runs); a body that throws becomes an error result named after the thrown error and its `code`.
 */
export interface Tool<Input = unknown> {
  /** `[A-Za-z0-9_-]{1,64}`, unique among an agent's tools. */
  readonly name: string;
  readonly description: string;
  readonly input: z.ZodType<Input>;
  readonly effect: DeclaredToolEffect;
  run(input: Input, context: ToolContext): ToolOutput | Promise<ToolOutput>;
}

/** Declares a tool with its argument type inferred from the zod schema. */
export function defineTool<Schema extends z.ZodType>(tool: {
  name: string;
  description: string;
  input: Schema;
  effect: DeclaredToolEffect;
  run(input: z.output<Schema>, context: ToolContext): ToolOutput | Promise<ToolOutput>;
}): Tool<z.output<Schema>> {
  // A schema's output type is its parse result; TypeScript cannot prove that for a generic schema.
  return { ...tool, input: tool.input as unknown as z.ZodType<z.output<Schema>> };
}
