/** @module tools-option: `--tools a,b` and tool names checked against the tools the CLI offers. */
import { CliError } from './cli-error.js';
import { cliTools } from './with-host.js';

/** The `--tools a,b` list, refusing names the CLI does not offer. */
export function parseTools(value: string): string[] {
  return checkTools(
    value
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  );
}

/** Tool names as given, refusing those the CLI does not offer. */
export function checkTools(names: string[]): string[] {
  const known = cliTools().map((tool) => tool.name);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new CliError('USAGE', `Unknown tool ${unknown.map((name) => `'${name}'`).join(', ')}: expected names from ${known.join(', ')}.`, {
      hint: 'pass --tools "" for no tools at all',
    });
  }
  return names;
}
