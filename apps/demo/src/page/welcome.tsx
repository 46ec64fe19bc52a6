/** What the shipped recordings show, as a starting point when no session is open. */
import type { SessionRow } from './wire.js';

const GUIDE: readonly { id: string; what: string }[] = [
  {
    id: 'tour-every-effect',
    what: 'one multi-step turn with tool calls of every effect class; fork it at a seq between a tool call and its result',
  },
  {
    id: 'crashed-mid-step',
    what: 'the process died while a tool ran: opening it runs crash repair, which closes the open calls with interrupted results',
  },
  { id: 'baseline', what: 'a named baseline with two peer forks, each continuing on its own' },
  { id: 'legacy-v0', what: 'a session stored in format V0, read through migration' },
  { id: 'legacy-v2', what: 'format V2: a failed tool and an aborted turn, migrated on read' },
  { id: 'legacy-v3', what: 'format V3: a crash repaired by an older dsh, then a completed turn' },
];

/** The welcome panel. */
export function Welcome({ sessions, onOpen }: { sessions: readonly SessionRow[]; onOpen: (id: string) => void }) {
  const known = new Set(sessions.map((session) => session.id));
  return (
    <section class="welcome" aria-label="Welcome">
      <h2>Pick a session</h2>
      <p>
        Every event has a seq. Fork any chat at its latest closed turn with <strong>Fork</strong> or <code>/branch</code>; fork at an exact
        event with the command the inspector shows.
      </p>
      <ul>
        {GUIDE.filter((entry) => known.has(entry.id)).map((entry) => (
          <li key={entry.id}>
            <a
              href={`#/s/${entry.id}`}
              onClick={(event) => {
                event.preventDefault();
                onOpen(entry.id);
              }}
            >
              {entry.id}
            </a>
            : {entry.what}
          </li>
        ))}
      </ul>
      <p class="muted">Or type a message below to start a new session.</p>
    </section>
  );
}
