/**
 * @module @dsh/interop
 * Drives the real agent tools (Claude Code, Codex, pi, the Claude Agent SDK) offline: pinned
 * installs into a cache folder, each tool's offline environment, a runner (the fake model server they
 * talk to is `@dsh/test-utils`' `startModelServer`).
 */
export {
  ALSO_PINNED,
  installTool,
  interopCacheDir,
  interopSkipReason,
  pinnedVersions,
  TOOL_VERSIONS,
  type InstalledTool,
  type ToolName,
} from './install-tool.js';
export { FAKE_MODEL, toolEnvironment, type ToolEnvironment } from './tool-environment.js';
export { runBin, runTool, type ToolRun } from './run-tool.js';
export { findSessionFiles } from './find-session-files.js';
export { makeInteropHome, type InteropHome } from './interop-home.js';
export { jsonlLines } from './jsonl-lines.js';
export { flatHistory, roundTrip, type FlatMessage } from './round-trip.js';
