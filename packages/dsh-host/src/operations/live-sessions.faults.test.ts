// Issue 36 item 4: hundreds of sessions made live in one host must not hold a descriptor each forever.
// At most maxLiveSessions stay live (the idle ones used longest ago are closed), each still answers
// when asked again, and the process's descriptors stay within the bound.
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createKeylessModel } from 'dsh-agent';
import { openSessionStore } from 'dsh-session';
import { faultTrials, makeTempDir, reportFaults } from '@dsh/test-utils';
import { createHost } from 'dsh-host';

async function openDescriptors(): Promise<number> {
  return (await readdir('/proc/self/fd')).length;
}

describe('live sessions in one host', { timeout: 600_000 }, () => {
  it('keeps at most maxLiveSessions live and their descriptors bounded however many sessions run a turn', async () => {
    const trials = faultTrials(1, 3);
    const sessionsPerTrial = faultTrials(300, 1000);
    const max = 32;
    const figures = { trials, sessions: 0, maxLive: 0, maxExtraDescriptors: 0, unbounded: 0, unanswered: 0 };
    for (let trial = 0; trial < trials; trial += 1) {
      const dir = await makeTempDir();
      const store = await openSessionStore({ dir: dir.path });
      const host = createHost({ store, model: createKeylessModel(), maxLiveSessions: max });
      const baseline = await openDescriptors();
      const ids: string[] = [];
      for (let index = 0; index < sessionsPerTrial; index += 1) {
        const { sessionId } = await host.create({ id: `peer-${index}` });
        ids.push(sessionId);
        const { inputId } = await host.send(sessionId, `task ${index}`);
        const result = await host.turnResult(sessionId, inputId);
        if (result.isError) figures.unanswered += 1;
        if (index % 10 === 9) {
          const live = (await host.list()).filter((session) => session.live).length;
          figures.maxLive = Math.max(figures.maxLive, live);
        }
        figures.maxExtraDescriptors = Math.max(figures.maxExtraDescriptors, (await openDescriptors()) - baseline);
      }
      figures.sessions += ids.length;
      // The first ones were closed long ago: asked again, they reopen and answer.
      for (const sessionId of ids.slice(0, 3)) {
        const { inputId } = await host.send(sessionId, 'again');
        if ((await host.turnResult(sessionId, inputId)).isError) figures.unanswered += 1;
      }
      await host.close();
      await store.close();
      await dir.remove();
    }
    // A live session holds one descriptor (its log); a few more come and go with each open.
    if (figures.maxLive > max || figures.maxExtraDescriptors > max + 16) figures.unbounded += 1;
    reportFaults('live-sessions', figures);
    expect(figures.maxLive).toBeLessThanOrEqual(max);
    expect(figures.maxExtraDescriptors).toBeLessThanOrEqual(max + 16);
    expect(figures.unanswered).toBe(0);
  });
});
