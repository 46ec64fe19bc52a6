/**
 * A stored session whose process stopped mid-step: `c1` has a `tool/call` (started) and no result,
 * `c2` was declared by the model but never started. The log ends inside turn 1.
 */
import type { SessionStore } from 'dsh-session';

/** Writes the crashed log through `store` and closes it; returns its id and stored event count. */
export async function createCrashedSession(store: SessionStore, title = 'crashed'): Promise<{ id: string; storedLength: number }> {
  const session = await store.create({ title });
  const message = { id: 'u', role: 'user', content: [{ type: 'text', text: 'go' }] };
  session.append('input/queued', { inputId: 'in-1', message });
  session.append('turn/start', { turn: 1 });
  session.append('user/message', { message, inputId: 'in-1' });
  session.append('step/start', { turn: 1, step: 1 });
  session.append('assistant/message', {
    turn: 1,
    step: 1,
    message: {
      id: 'a',
      role: 'assistant',
      content: [
        { type: 'tool-call', id: 'c1', name: 'echo', arguments: '{"text":"one"}' },
        { type: 'tool-call', id: 'c2', name: 'echo', arguments: '{"text":"two"}' },
      ],
    },
  });
  session.append('tool/call', { turn: 1, step: 1, callId: 'c1', name: 'echo', arguments: '{"text":"one"}', effect: 'read-only' });
  await session.close();
  return { id: session.id, storedLength: session.events.length };
}
