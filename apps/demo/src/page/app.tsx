/**
 * The demo page: sessions with their lineage, the open session's transcript (live over SSE), the
 * composer with its slash commands, and the inspector. State lives here and in its hooks (notices, the
 * session view, the commands, the peers form); children only render. Notices belong to the session
 * they were made in: switching to another one (the list, the start page, the board, the browser's
 * history) clears them, while an action that moves to a session itself (a fork, /resume) keeps its own.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api } from './api.js';
import { ChatHead } from './chat-head.js';
import { Composer } from './composer.js';
import { ImportDrop, importTreeLines } from './import-drop.js';
import { Inspector } from './inspector.js';
import { NoticeList } from './notice-list.js';
import { parsePeersHash } from './peer-summary.js';
import { PeersBoard } from './peers-board.js';
import { PeersForm } from './peers-form.js';
import { sessionLabel } from './lineage-tree.js';
import { RepairBanners } from './repair-banners.js';
import { repairRange } from './repair-range.js';
import { SessionList } from './session-list.js';
import { Transcript } from './transcript.js';
import { hasOpenTurn, latestTitle, transcriptItems } from './transcript-items.js';
import { useNotices } from './use-notices.js';
import { usePeersForm } from './use-peers-form.js';
import { useSessionCommands } from './use-session-commands.js';
import { describeError, useSessionView } from './use-session-view.js';
import { Welcome } from './welcome.js';
import type { SessionRow } from './wire.js';

function idFromHash(): string | undefined {
  const match = /^#\/s\/(.+)$/.exec(window.location.hash);
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
}

/** The whole page. */
export function App() {
  const [sessions, setSessions] = useState<SessionRow[]>([]);
  const [currentId, setCurrentId] = useState<string | undefined>(idFromHash);
  const [reloads, setReloads] = useState(0);
  const [selectedSeq, setSelectedSeq] = useState<number | undefined>();
  const [board, setBoard] = useState(() => parsePeersHash(window.location.hash));
  const { notices, notify, clear: clearNotices } = useNotices();
  // The session the page itself last moved to; a hash naming another one is the user switching.
  const shown = useRef(idFromHash());

  const refreshList = useCallback(async () => {
    try {
      setSessions(await api.list());
    } catch (error) {
      notify(`Could not list sessions: ${describeError(error)}`, 'error');
    }
  }, [notify]);
  // The “Peers…” form: open while `peersForm.request` names a baseline.
  const peersForm = usePeersForm(notify, refreshList);

  const open = useCallback((id: string) => {
    shown.current = id;
    if (idFromHash() !== id) window.location.hash = `#/s/${encodeURIComponent(id)}`;
    setCurrentId(id);
    setSelectedSeq(undefined);
  }, []);

  // The user picking a session to look at: another one than shown clears the notices.
  const choose = useCallback(
    (id: string) => {
      if (id !== shown.current) clearNotices();
      open(id);
    },
    [clearNotices, open],
  );

  const reload = useCallback(() => {
    setReloads((count) => count + 1);
  }, []);

  useEffect(() => {
    void refreshList();
    const timer = setInterval(() => void refreshList(), 5000);
    const onHash = () => {
      const id = idFromHash();
      const peers = parsePeersHash(window.location.hash);
      // A session's peers board is a view of it (its peers form moves there): its notices stay.
      const of = id ?? peers?.baseline;
      if (of !== shown.current) {
        shown.current = of;
        clearNotices();
      }
      setCurrentId(id);
      setBoard(peers);
      setSelectedSeq(undefined);
    };
    window.addEventListener('hashchange', onHash);
    // A hash change between the first render and this effect fired no listener: take the hash as it is now.
    onHash();
    return () => {
      clearInterval(timer);
      window.removeEventListener('hashchange', onHash);
    };
  }, [refreshList, clearNotices]);

  const { loaded, loadError, streaming } = useSessionView(currentId, { reloads, reload, refreshList, notify });

  // While another session loads, the previous one's view must not show under the new one's name.
  const view = loaded?.id === currentId ? loaded : undefined;
  const items = useMemo(() => (view ? transcriptItems(view.events, view.observation.header) : []), [view]);
  const running = view !== undefined && !view.observation.needsRepair && hasOpenTurn(view.events);
  const row = sessions.find((session) => session.id === currentId);
  // The live title from the events; a fork without its own title is named after its parent and cut.
  const title = view === undefined ? undefined : latestTitle(view.events);
  const heading =
    view === undefined || row === undefined
      ? (title ?? currentId)
      : sessionLabel({ ...row, ...(title === undefined ? {} : { title }) }, new Map(sessions.map((session) => [session.id, session])));
  const repair = view?.repairedFrom === undefined ? undefined : repairRange(view.events, view.repairedFrom);

  const { branch, forkHere, submit } = useSessionCommands({
    currentId,
    live: view?.observation.live === true,
    notify,
    open,
    refreshList,
    reload,
  });

  return (
    <div class="layout">
      <header class="top">
        <h1>dsh demo</h1>
        <p class="tagline">Durable agent sessions with exact-event forks</p>
      </header>
      <SessionList sessions={sessions} currentId={currentId} onOpen={choose}>
        <ImportDrop
          onImported={(answer, fileName) => {
            const count = answer.sessions.length;
            notify(
              [
                `Imported ${fileName} (${answer.format}): ${String(count)} session${count === 1 ? '' : 's'}`,
                ...importTreeLines(answer),
                ...answer.warnings.map((warning) => `warning: ${warning}`),
              ].join('\n'),
            );
            void refreshList();
            const main = answer.sessions[0];
            if (main !== undefined) open(main.id);
          }}
          onError={(message) => {
            notify(`Import refused: ${message}`, 'error');
          }}
        />
      </SessionList>
      {board !== undefined && currentId === undefined ? (
        <PeersBoard
          baseline={board.baseline}
          name={sessions.find((session) => session.id === board.baseline)?.title ?? board.baseline}
          ids={board.ids}
          refreshList={refreshList}
          notify={notify}
          onOpen={choose}
        >
          <NoticeList notices={notices} />
        </PeersBoard>
      ) : (
        <main class="chat" aria-label="Chat">
          {peersForm.request !== undefined && (
            <PeersForm
              baseline={sessions.find((session) => session.id === peersForm.request?.baseline)?.title ?? peersForm.request.baseline}
              atSeq={peersForm.request.atSeq}
              onSubmit={peersForm.submit}
              onCancel={peersForm.cancel}
            />
          )}
          {currentId === undefined ? (
            <Welcome sessions={sessions} onOpen={choose} />
          ) : loadError !== undefined ? (
            <p role="alert">
              Could not open {currentId}: {loadError}
            </p>
          ) : view === undefined ? (
            <p aria-busy="true">Loading {currentId}…</p>
          ) : (
            <>
              <ChatHead
                view={view}
                heading={heading}
                formatVersion={row?.formatVersion}
                running={running}
                onFork={() => branch(view.id)}
                onPeers={() => {
                  peersForm.ask(view.id);
                }}
                onDelete={async () => {
                  const { sessionId } = await api.delete(view.id);
                  notify(`Deleted ${sessionId}; its forks keep their copies of its history.`);
                  shown.current = undefined;
                  window.location.hash = '';
                  await refreshList();
                }}
                notify={notify}
              />
              <RepairBanners needsRepair={view.observation.needsRepair} repair={repair} />
              <Transcript key={view.id} items={items} streaming={streaming} onInspect={setSelectedSeq} selectedSeq={selectedSeq} />
            </>
          )}
          <NoticeList notices={notices} />
          <Composer onSubmit={submit} running={running} />
        </main>
      )}
      {view && (
        <Inspector
          sessionId={view.id}
          events={view.events}
          selectedSeq={selectedSeq}
          onSelect={setSelectedSeq}
          firstLifecycleSeq={view.observation.firstLifecycleSeq}
          inheritedEventCount={view.observation.header.inheritedEventCount}
          onForkHere={(seq) => {
            forkHere(view.id, seq);
          }}
          onPeersHere={(seq) => {
            peersForm.ask(view.id, seq);
          }}
        />
      )}
    </div>
  );
}
