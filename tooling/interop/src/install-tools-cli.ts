/** `pnpm --filter @dsh/interop run install-tools [tool[@version]…]`: fills the interop cache ahead of the tests (every pinned version of each tool named, or of all). */
import { installTool, pinnedVersions, TOOL_VERSIONS, type ToolName } from './install-tool.js';

const names = process.argv.slice(2);
const wanted = names.length > 0 ? names : Object.keys(TOOL_VERSIONS);
for (const name of wanted) {
  const at = name.lastIndexOf('@');
  const tool = (at > 0 ? name.slice(0, at) : name) as ToolName;
  if (!(tool in TOOL_VERSIONS)) throw new Error(`unknown tool ${tool}: expected one of ${Object.keys(TOOL_VERSIONS).join(', ')}`);
  for (const version of at > 0 ? [name.slice(at + 1)] : pinnedVersions(tool)) {
    const installed = await installTool(tool, version);
    process.stdout.write(`${tool}@${installed.version} ${installed.installed ? 'installed' : 'cached'} at ${installed.prefix}\n`);
  }
}
