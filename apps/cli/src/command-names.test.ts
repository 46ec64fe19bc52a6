/** The command index parsing reads agrees with the whole table help and completion read. */
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, loadCommandSpec, PRINT_COMMAND_NAME } from './command-names.js';
import { COMMANDS, PRINT_COMMAND } from './command-spec.js';

describe('the command index', () => {
  it('names every command of the table, in the order dsh --help lists them', () => {
    expect(COMMAND_NAMES).toEqual(COMMANDS.map((spec) => spec.name));
  });

  it("loads each command's own spec: the very entry the table holds", async () => {
    for (const spec of COMMANDS) expect(await loadCommandSpec(spec.name), spec.name).toBe(spec);
  });

  it('has no spec for a word that is not a command, print mode and object keys included', async () => {
    for (const word of ['frok', '', 'help', PRINT_COMMAND_NAME, '-p', '__proto__', 'constructor', 'toString', 'FORK']) {
      expect(await loadCommandSpec(word), word).toBeUndefined();
    }
  });

  it('names print mode as its spec does', () => {
    expect(PRINT_COMMAND.name).toBe(PRINT_COMMAND_NAME);
  });
});
