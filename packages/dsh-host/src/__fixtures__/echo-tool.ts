/** @module `echoTool`: a tool that answers with its input, for tests that need a tool call. */
import { z } from 'zod';
import { defineTool, type Tool } from 'dsh-agent';

/** A read-only tool returning its `text` argument, for host tests. */
export const echoTool = defineTool({
  name: 'echo',
  description: 'Returns its text.',
  input: z.object({ text: z.string() }),
  effect: 'read-only',
  run: ({ text }) => text,
}) as Tool;
