/** One peer of the peers board: its name, cwd, tool calls and files, its live transcript and its own composer. */
import { useCallback, useMemo, useState } from 'preact/hooks';
import { api } from './api.js';
import { Composer } from './composer.js';
import { peerSummary } from './peer-summary.js';
import { Transcript } from './transcript.js';
import { hasOpenTurn, latestTitle, transcriptItems } from './transcript-items.js';
import { describeError, useSessionView } from './use-session-view.js';

type Props = {
  id: string;
  refreshList: () => Promise<void>;
  notify: (text: string, tone?: 'info' | 'error') => void;
  onOpen: (id: string) => void;
};

/** A region labelled “Peer NAME”, following the peer's events over SSE like the chat does. */
export function PeerColumn({ id, refreshList, notify, onOpen }: Props) {
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => {
    setReloads((count) => count + 1);
  }, []);
  const [selectedSeq, setSelectedSeq] = useState<number | undefined>();
  const { loaded, loadError, streaming } = useSessionView(id, { reloads, reload, refreshList, notify });
  const items = useMemo(() => (loaded ? transcriptItems(loaded.events, loaded.observation.header) : []), [loaded]);
  const summary = useMemo(() => (loaded ? peerSummary(loaded.events, loaded.observation.header.inheritedEventCount) : undefined), [loaded]);
  const running = loaded !== undefined && hasOpenTurn(loaded.events);
  const name = (loaded === undefined ? undefined : latestTitle(loaded.events)) ?? id;
  const submit = useCallback(
    async (text: string): Promise<boolean> => {
      try {
        await api.send(id, text);
        if (loaded?.observation.live !== true) reload();
        return true;
      } catch (error) {
        notify(describeError(error), 'error');
        return false;
      }
    },
    [id, loaded, notify, reload],
  );
  return (
    <section class="peer" aria-label={`Peer ${name}`}>
      <header class="peer-head">
        <h2>
          <a
            href={`#/s/${encodeURIComponent(id)}`}
            onClick={(event) => {
              event.preventDefault();
              onOpen(id);
            }}
          >
            {name}
          </a>
        </h2>
        <p class="muted">
          <span>{id}</span>
          {loaded?.observation.cwd !== undefined && <span>{` · ${loaded.observation.cwd}`}</span>}
          <span>{` · ${running ? 'turn running' : 'idle'}`}</span>
        </p>
        {summary && (
          <p class="peer-facts">
            <span>tool calls: {summary.toolCalls.length === 0 ? 'none' : summary.toolCalls.join(', ')}</span>
            <span>files changed: {summary.files.length === 0 ? 'none' : summary.files.join(', ')}</span>
          </p>
        )}
      </header>
      {loadError !== undefined ? (
        <p role="alert">
          Could not open {id}: {loadError}
        </p>
      ) : loaded === undefined ? (
        <p aria-busy="true">Loading {id}…</p>
      ) : (
        <Transcript items={items} streaming={streaming} onInspect={setSelectedSeq} selectedSeq={selectedSeq} />
      )}
      <Composer onSubmit={submit} running={running} label={`Message to ${name}`} />
    </section>
  );
}
