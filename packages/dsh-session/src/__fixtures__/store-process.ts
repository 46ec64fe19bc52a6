/**
 * A second process for the cross-process tests: it opens a JSONL store and reports on stdout, one
 * JSON object per line (pipes are synchronous on Linux, so a printed line was said after the fact).
 *   hold  <dir> <id>  open (or create) the session and hold it until stdin closes
 *   race  <dir> <id>  try to open it; report opened (and hold until stdin closes) or busy
 *   write <dir> <id>  open (or create) it and append turns forever, acknowledging each durable batch
 *   fork  <dir> <id>  fork it again and again at varying cuts, reporting each child once it is returned
 *   open  <dir> <id>  open (repairing) and close it again and again, reporting each completed open
 *   import <dir> <id> import its log whole as new sessions again and again (each titled by its round,
 *                     so each seals its own segment), reporting each once `import` returned
 */
import { createHash } from 'node:crypto';
import { openSessionStore, SessionError, type Session, type SessionStore } from 'dsh-session';

const [mode, dir, id] = process.argv.slice(2) as [string, string, string];
const say = (message: object) => process.stdout.write(`${JSON.stringify(message)}\n`);

async function openOrCreate(store: SessionStore): Promise<Session> {
  return (await store.has(id)) ? store.open(id) : store.create({ id, title: 'held by another process' });
}

function untilStdinCloses(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.on('end', resolve);
    process.stdin.on('close', resolve);
    process.stdin.resume();
  });
}

/** sha256 of events `from..to`, as the parent recomputes it from the reopened log. */
function digest(session: Session, from: number, to: number): string {
  return createHash('sha256')
    .update(JSON.stringify(session.events.slice(from, to + 1)))
    .digest('hex');
}

/** Appends one agent-like turn, flushing where the agent loop does (before the model request and the tool body). */
async function writeTurn(session: Session, turn: number, acknowledge: (flushed: Promise<void>) => void): Promise<void> {
  // Every fourth turn carries a large tool result, so a kill can land inside a long write.
  const size = turn % 4 === 0 ? 400_000 : 2_000;
  const text = `turn ${turn} `.padEnd(size, 'x');
  session.append('turn/start', { turn });
  session.append('user/message', { message: { id: `u${turn}`, role: 'user', content: [{ type: 'text', text: 'go' }] } });
  session.append('step/start', { turn, step: 1 });
  acknowledge(session.flush());
  await new Promise((resolve) => setImmediate(resolve));
  session.append('assistant/message', {
    turn,
    step: 1,
    message: { id: `a${turn}`, role: 'assistant', content: [{ type: 'tool-call', id: `c${turn}`, name: 'write', arguments: '{}' }] },
  });
  session.append('tool/call', { turn, step: 1, callId: `c${turn}`, name: 'write', arguments: '{}', effect: 'side-effect' });
  const beforeTool = session.flush();
  acknowledge(beforeTool);
  await beforeTool;
  session.append('tool/result', {
    turn,
    step: 1,
    message: { id: `r${turn}`, role: 'tool', callId: `c${turn}`, content: [{ type: 'text', text }], isError: false },
  });
  session.append('step/end', { turn, step: 1 });
  session.append('turn/end', { turn, reason: { kind: 'completed' } });
  acknowledge(session.flush());
  await new Promise((resolve) => setImmediate(resolve));
}

async function main(): Promise<void> {
  const store = await openSessionStore({ dir });
  if (mode === 'hold') {
    await openOrCreate(store);
    say({ event: 'ready', pid: process.pid });
    await untilStdinCloses();
  } else if (mode === 'race') {
    try {
      await store.open(id);
      say({ event: 'opened', pid: process.pid });
    } catch (error) {
      if (!SessionError.is(error) || error.code !== 'SESSION_BUSY') throw error;
      say({ event: 'busy', pid: process.pid, holder: error.holder?.pid });
    }
    await untilStdinCloses();
  } else if (mode === 'fork') {
    const { events } = await store.inspect(id);
    say({ event: 'ready', pid: process.pid });
    for (let round = 0; round < 100_000; round += 1) {
      const child = `${id}-child-${process.pid}-${round}`;
      await store.fork(id, { atSeq: (round * 7919) % events.length, id: child });
      say({ event: 'forked', child });
    }
  } else if (mode === 'import') {
    const { header, events } = await store.inspect(id);
    say({ event: 'ready', pid: process.pid });
    for (let round = 0; round < 100_000; round += 1) {
      const copy = `${id}-import-${process.pid}-${round}`;
      const titled = events.map((event) => (event.type === 'session/title' ? { ...event, data: { title: `import ${round}` } } : event));
      await store.import({ header: { ...header, id: copy }, events: titled });
      say({ event: 'imported', id: copy, round });
    }
  } else if (mode === 'open') {
    say({ event: 'ready', pid: process.pid });
    for (let round = 0; round < 100_000; round += 1) {
      const session = await store.open(id);
      session.append('session/title', { title: `open ${round}` });
      await session.close();
      say({ event: 'opened', round, events: session.events.length });
    }
  } else if (mode === 'write') {
    const session = await openOrCreate(store);
    say({ event: 'ready', pid: process.pid, from: session.events.length });
    let turn = session.events.filter((event) => event.type === 'turn/start').length + 1;
    let requested = session.events.length - 1;
    const acknowledge = (flushed: Promise<void>) => {
      const from = requested + 1;
      const to = session.events.length - 1;
      if (to < from) return;
      requested = to;
      const hash = digest(session, from, to);
      flushed.then(
        () => say({ event: 'durable', from, to, digest: hash }),
        (error: unknown) => {
          // A writer that lost its lease is refused; it reports and stops writing.
          say({ event: 'refused', from, to, code: SessionError.is(error) ? error.code : String(error) });
          process.exit(3);
        },
      );
    };
    // Bounded, though the parent kills it long before.
    for (let round = 0; round < 5_000; round += 1) {
      await writeTurn(session, turn, acknowledge);
      turn += 1;
    }
    say({ event: 'finished' });
  }
  await store.close();
}

main().catch((error: unknown) => {
  say({ event: 'error', message: String(error) });
  process.exitCode = 1;
});
