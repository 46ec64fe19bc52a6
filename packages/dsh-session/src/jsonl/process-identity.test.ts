// The lease's liveness verdicts, with forged identities playing processes elsewhere.
import { describe, expect, it } from 'vitest';
import { currentProcess, INITIAL_PID_NAMESPACE, isProcessAlive } from './process-identity.js';

const me = currentProcess();
const onLinux = me.pidNamespace !== undefined && me.bootId !== undefined;

describe('process identity', () => {
  it('records pid, host, start time, PID namespace and boot id', () => {
    expect(me.pid).toBe(process.pid);
    if (onLinux) {
      expect(me.pidNamespace).toMatch(/^pid:\[\d+\]$/);
      expect(me.bootId).toMatch(/^[0-9a-f-]{36}$/);
      expect(me.start).toMatch(/^\d+$/);
    }
    expect(isProcessAlive(me)).toBe(true);
  });

  it.runIf(onLinux)('never declares a holder in a PID namespace it cannot see into dead, whatever its pid', () => {
    // "Another namespace" seen from a process that is itself inside a container: it sees neither.
    const observer = { ...me, pidNamespace: 'pid:[4026500001]' };
    const holder = { ...me, pid: 1, start: '1', pidNamespace: 'pid:[4026500002]' };
    expect(isProcessAlive(holder, observer)).toBe(true);
    // The same pid number in this namespace would be a different process: hostname + pid is not an identity.
    expect(isProcessAlive({ pid: holder.pid, host: me.host, start: '1' }, me)).toBe(false);
  });

  it.runIf(onLinux && me.pidNamespace === INITIAL_PID_NAMESPACE)('knows from the initial namespace when another namespace is gone', () => {
    expect(isProcessAlive({ ...me, pid: 7, start: '1', pidNamespace: 'pid:[4026500003]' })).toBe(false);
  });

  it.runIf(onLinux)('declares the holders of an earlier boot dead, and trusts holders on other hosts', () => {
    expect(isProcessAlive({ ...me, bootId: '00000000-0000-0000-0000-000000000000' })).toBe(false);
    expect(isProcessAlive({ ...me, host: `${me.host}-elsewhere`, bootId: '00000000-0000-0000-0000-000000000000' })).toBe(true);
  });
});
