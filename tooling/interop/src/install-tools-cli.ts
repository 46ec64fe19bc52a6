/** `pnpm --filter @dsh/interop run install-tools [tool…]`: fills the interop cache ahead of the tests. */
import { installTool, TOOL_VERSIONS, type ToolName } from './install-tool.js';

const names = process.argv.slice(2);
const tools = (names.length > 0 ? names : Object.keys(TOOL_VERSIONS)) as ToolName[];
for (const tool of tools) {
  if (!(tool in TOOL_VERSIONS)) throw new Error(`unknown tool ${tool}: expected one of ${Object.keys(TOOL_VERSIONS).join(', ')}`);
  const installed = await installTool(tool);
  process.stdout.write(`${tool}@${installed.version} ${installed.installed ? 'installed' : 'cached'} at ${installed.prefix}\n`);
}
