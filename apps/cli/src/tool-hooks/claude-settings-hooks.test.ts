import { describe, expect, it } from 'vitest';
import { CliError } from '../cli-error.js';
import { addDshHooks, parseClaudeSettings, removeDshHooks } from './claude-settings-hooks.js';

const OURS = "/usr/bin/node '/opt/my dsh/bin/dsh.js' checkpoint --from claude-code";
const theirs = { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo before-bash' }] };
const mixed = { matcher: '*', hooks: [{ type: 'command', command: 'lint --fix' }] };

describe('dsh hooks in Claude Code settings', () => {
  it('adds PreToolUse and PostToolUse beside the other hooks and settings, in order', () => {
    const settings = { model: 'opus', permissions: { allow: ['Read'] }, hooks: { PreToolUse: [theirs], Stop: [mixed] } };
    const { settings: next, added } = addDshHooks(settings, OURS);
    expect(added).toBe(2);
    expect(next).toEqual({
      model: 'opus',
      permissions: { allow: ['Read'] },
      hooks: {
        PreToolUse: [theirs, { matcher: '*', hooks: [{ type: 'command', command: OURS, timeout: 30 }] }],
        Stop: [mixed],
        PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: OURS, timeout: 30 }] }],
      },
    });
    expect(settings.hooks.PreToolUse).toEqual([theirs]); // the input is not changed
  });

  it('installing twice adds nothing', () => {
    const once = addDshHooks({}, OURS).settings;
    const twice = addDshHooks(once, OURS);
    expect(twice.added).toBe(0);
    expect(twice.settings).toEqual(once);
  });

  it('remove takes out exactly the hooks with our command, keeping a group that holds others', () => {
    const settings = {
      hooks: {
        PreToolUse: [
          theirs,
          {
            matcher: '*',
            hooks: [
              { type: 'command', command: 'lint --fix' },
              { type: 'command', command: OURS },
            ],
          },
        ],
        PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: OURS, timeout: 30 }] }],
        Stop: [mixed],
      },
    };
    const { settings: next, removed } = removeDshHooks(settings, OURS);
    expect(removed).toBe(2);
    expect(next).toEqual({
      hooks: { PreToolUse: [theirs, { matcher: '*', hooks: [{ type: 'command', command: 'lint --fix' }] }], Stop: [mixed] },
    });
  });

  it('remove leaves a similar command alone (another dsh, another data folder) and drops an emptied hooks object', () => {
    const other = `${OURS} --data /elsewhere`;
    const installed = addDshHooks(addDshHooks({}, other).settings, OURS).settings;
    const { settings: next, removed } = removeDshHooks(installed, OURS);
    expect(removed).toBe(2);
    expect(next).toEqual(addDshHooks({}, other).settings);
    expect(removeDshHooks(addDshHooks({ a: 1 }, OURS).settings, OURS).settings).toEqual({ a: 1 });
    expect(removeDshHooks({ a: 1 }, OURS)).toEqual({ settings: { a: 1 }, removed: 0 });
  });

  it('reads empty text as {} and refuses malformed settings with INVALID_SETTINGS naming the place', () => {
    expect(parseClaudeSettings('', 'f.json')).toEqual({});
    const refused = (text: string): CliError => {
      try {
        parseClaudeSettings(text, '/p/.claude/settings.json');
      } catch (error) {
        return error as CliError;
      }
      throw new Error(`accepted ${text}`);
    };
    expect(refused('{"hooks": ').code).toBe('INVALID_SETTINGS');
    expect(refused('{"hooks": ').message).toContain('/p/.claude/settings.json is not valid JSON');
    expect(refused('[1]').message).toContain('expected the settings to be a JSON object; got an array');
    expect(refused('{"hooks": []}').message).toContain('expected "hooks" to be an object of hook events; got an array');
    expect(refused('{"hooks": {"PreToolUse": {}}}').message).toContain(
      '"hooks.PreToolUse" to be an array of matcher groups; got an object',
    );
    expect(refused('{"hooks": {"PostToolUse": [{"matcher": "*"}]}}').message).toContain(
      '"hooks.PostToolUse[0].hooks" to be an array of hooks; got none',
    );
  });
});
