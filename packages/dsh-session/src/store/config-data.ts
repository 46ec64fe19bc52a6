/**
 * @module The `session/config` event data of a `SessionConfig` (only the keys it sets).
 */
import type { JsonValue, SessionConfig } from 'dsh-codec';

/** @internal The `session/config` data of a config: only the keys it sets, as fresh JSON. */
export function configData(config: SessionConfig): JsonValue {
  const data: { [key: string]: JsonValue } = {};
  if (config.tools !== undefined) data.tools = [...config.tools];
  if (config.cwd !== undefined) data.cwd = config.cwd;
  if (config.model !== undefined) data.model = config.model;
  if (config.checkpoints !== undefined) data.checkpoints = config.checkpoints;
  return data;
}
