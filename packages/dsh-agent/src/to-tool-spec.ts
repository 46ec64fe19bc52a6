/**
 * @module to-tool-spec
 * `toToolSpec`: the spec a model sees of a tool (name, description, JSON Schema from its zod input).
 */
import { z } from 'zod';
import type { JsonObject } from 'dsh-codec';
import type { Tool } from './define-tool.js';
import type { ToolSpec } from './model.js';

/** The model-facing spec of a tool: its JSON Schema is derived from the zod input schema. */
export function toToolSpec(tool: Tool): ToolSpec {
  const schema = JSON.parse(JSON.stringify(z.toJSONSchema(tool.input))) as JsonObject;
  delete schema.$schema;
  return { name: tool.name, description: tool.description, parameters: schema };
}
