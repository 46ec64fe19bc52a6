/**
 * V7's `session/config.checkpoints` (SPEC §23): a boolean, stored; anything else refused naming the
 * field; V6's frozen validator still refuses the key (V7 only adds).
 */
import { describe, expect, it } from 'vitest';
import { CodecError, createEventChecker, encodeEvent, validate, type SessionEvent } from 'dsh-codec';

const TIME = 1_765_087_200_000;

function config(data: unknown): SessionEvent {
  return { seq: 0, type: 'session/config', time: TIME, data } as SessionEvent;
}

function header(version: 6 | 7): Record<string, unknown> {
  return { format: 'dsh-session', version, id: 's1', createdAt: 1_765_087_200_000, inheritedEventCount: 0 };
}

describe('session/config.checkpoints (V7)', () => {
  it('accepts checkpoints: false and true beside the other fields, in the checker, the encoder and validate(7)', () => {
    for (const checkpoints of [false, true]) {
      const event = config({ cwd: '/work', checkpoints });
      expect(createEventChecker().accept(event)).toEqual([]);
      expect(JSON.parse(encodeEvent(event))).toMatchObject({ data: { cwd: '/work', checkpoints } });
      expect(validate(7, { header: header(7), events: [event] })).toEqual([]);
    }
  });

  it('refuses a checkpoints that is not a boolean, naming the field; V6 refuses the key it never had', () => {
    const bad = config({ checkpoints: 'no' });
    expect(() => encodeEvent(bad)).toThrow(CodecError);
    expect(JSON.stringify(validate(7, { header: header(7), events: [bad] }))).toContain('checkpoints');
    const issues = validate(6, { header: header(6), events: [config({ checkpoints: false })] });
    expect(issues.length).toBeGreaterThan(0);
  });
});
