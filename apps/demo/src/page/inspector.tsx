/** Every event of the open session by seq, the selected event's JSON, and forking exactly there (button or CLI). */
import { useEffect, useRef } from 'preact/hooks';
import type { WireEvent } from './wire.js';

type Props = {
  sessionId: string;
  events: readonly WireEvent[];
  selectedSeq: number | undefined;
  onSelect: (seq: number) => void;
  firstLifecycleSeq: number;
  inheritedEventCount: number;
  /** Forks the session at exactly `seq` over HTTP and opens the child. */
  onForkHere: (seq: number) => void;
  /** Opens the “Peers…” form for peers forked at exactly `seq`. */
  onPeersHere?: (seq: number) => void;
};

/**
 * The CLI arguments that reach the serving demo's sessions (`--data DIR`), from the `dsh-cli-data`
 * meta tag the server writes; empty when the page was served without one.
 */
export function cliDataArguments(): string {
  if (typeof document === 'undefined') return '';
  return document.querySelector('meta[name="dsh-cli-data"]')?.getAttribute('content') ?? '';
}

/** The CLI command that forks `sessionId` at exactly `seq` (SPEC §10) in the store given by `data` (`--data DIR`). */
export function forkCommand(sessionId: string, seq: number, data: string): string {
  return `dsh fork ${sessionId} --at ${String(seq)}${data === '' ? '' : ` ${data}`}`;
}

function origin(seq: number, inherited: number, firstLifecycle: number): string {
  if (seq < inherited) return 'inherited';
  if (seq >= firstLifecycle) return 'this lifecycle';
  return 'stored';
}

/**
 * A complementary landmark “Inspector”. Selecting an event brings its actions (“Fork here”) into
 * view when they are out of it — below the chat on a narrow screen, or scrolled away in the panel.
 */
export function Inspector({
  sessionId,
  events,
  selectedSeq,
  onSelect,
  firstLifecycleSeq,
  inheritedEventCount,
  onForkHere,
  onPeersHere,
}: Props) {
  const selected = selectedSeq === undefined ? undefined : events[selectedSeq];
  const actions = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (selectedSeq !== undefined) actions.current?.scrollIntoView({ block: 'nearest' });
  }, [sessionId, selectedSeq]);
  return (
    <aside class="inspector" aria-label="Inspector">
      <h2>Inspector</h2>
      {selected ? (
        <section aria-label={`Event ${selected.seq}`} class="event-detail">
          <h3>
            seq {selected.seq} · {selected.type}
          </h3>
          <p class="muted">
            {new Date(selected.time).toISOString()} · {origin(selected.seq, inheritedEventCount, firstLifecycleSeq)}
          </p>
          <p class="event-actions" ref={actions}>
            <button
              type="button"
              title={`POST /api/sessions/${sessionId}/fork { atSeq: ${selected.seq} }, then open the child`}
              onClick={() => {
                onForkHere(selected.seq);
              }}
            >
              Fork here
            </button>{' '}
            {onPeersHere !== undefined && (
              <button
                type="button"
                title={`POST /api/sessions/${sessionId}/peers { atSeq: ${selected.seq}, peers: [...] }: several siblings at this event, run at once`}
                onClick={() => {
                  onPeersHere(selected.seq);
                }}
              >
                Peers here…
              </button>
            )}
          </p>
          <p>Or from a terminal (the demo’s data folder is the CLI’s store):</p>
          <pre class="command" aria-label="Fork command">
            {forkCommand(sessionId, selected.seq, cliDataArguments())}
          </pre>
          {/* Focusable, so a keyboard can scroll a long event (axe: scrollable-region-focusable). */}
          <pre class="json" tabIndex={0} role="region" aria-label="Selected event as JSON">
            {JSON.stringify(selected, null, 2)}
          </pre>
        </section>
      ) : (
        <p class="muted">Select a seq to see its event and fork exactly there.</p>
      )}
      <table class="events">
        <caption>Events ({events.length})</caption>
        <thead>
          <tr>
            <th scope="col">seq</th>
            <th scope="col">type</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.seq} class={event.seq === selectedSeq ? 'selected' : event.seq < inheritedEventCount ? 'inherited' : undefined}>
              <td>
                <button
                  type="button"
                  class="seq"
                  aria-label={`Select event ${event.seq}`}
                  onClick={() => {
                    onSelect(event.seq);
                  }}
                >
                  {event.seq}
                </button>
              </td>
              <td>{event.type}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </aside>
  );
}
