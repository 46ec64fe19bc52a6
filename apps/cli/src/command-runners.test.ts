/** Every command of the table has a runner, and no runner is left without a command. */
import { expect, it } from 'vitest';
import { COMMAND_RUNNERS } from './command-runners.js';
import { COMMANDS, PRINT_COMMAND } from './command-spec.js';

it('COMMAND_RUNNERS runs exactly the commands of the table and print mode', () => {
  expect(Object.keys(COMMAND_RUNNERS).sort()).toEqual([PRINT_COMMAND.name, ...COMMANDS.map((spec) => spec.name)].sort());
});
