import { expect, test } from 'vitest';
import { INTERACTIVE_HELP } from './interactive-help.js';

test('/help built from the shared grammar prints the lines interactive mode always printed', () => {
  expect(INTERACTIVE_HELP).toBe(
    [
      '/branch [NAME]      fork after the latest closed turn and switch to the branch',
      '/fork SEQ [NAME]    fork exactly at event SEQ and switch to the child',
      '                    both take --cwd DIR, --tools a,b (only those config fields change) or --worktree',
      '/rename NAME        name this session',
      '/resume [NAME|ID]   switch to another session (without one: pick from the recent ones)',
      '/compact            summarise history for the model (the log keeps everything)',
      '/tree               the fork tree (* marks this session)',
      '/events             every event of this session with its seq',
      '/help               this list',
      '/exit               quit (also Ctrl-D, or Ctrl-C twice)',
      'Ctrl-C during a turn cancels it (recorded as cancelled). Lines typed during a turn wait for it to end;',
      '/branch typed during a turn acts at once (the running turn goes on in the session it started in).',
    ].join('\n'),
  );
});
