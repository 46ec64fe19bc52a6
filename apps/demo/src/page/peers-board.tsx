/** The peers board (SPEC §20): the peers of one baseline in columns, each streaming, each with its own composer. */
import type { ComponentChildren } from 'preact';
import { PeerColumn } from './peer-column.js';

type Props = {
  baseline: string;
  /** The baseline's name, as the heading shows it. */
  name: string;
  ids: readonly string[];
  refreshList: () => Promise<void>;
  notify: (text: string, tone?: 'info' | 'error') => void;
  onOpen: (id: string) => void;
  /** Shown under the columns (the page's notices). */
  children?: ComponentChildren;
};

/** A main landmark labelled “Peers”, one column per peer in the order they were forked, then `children`. */
export function PeersBoard({ baseline, name, ids, refreshList, notify, onOpen, children }: Props) {
  return (
    <main class="board" aria-label="Peers">
      <div class="board-head">
        <h2>
          Peers of{' '}
          <a
            href={`#/s/${encodeURIComponent(baseline)}`}
            onClick={(event) => {
              event.preventDefault();
              onOpen(baseline);
            }}
          >
            {name}
          </a>
        </h2>
        <p class="muted">Siblings forked at one cut of the baseline; each runs on its own, compare their answers, tool calls and files.</p>
      </div>
      <div class="columns" style={{ gridTemplateColumns: `repeat(${String(ids.length)}, minmax(18rem, 1fr))` }}>
        {ids.map((id) => (
          <PeerColumn key={id} id={id} refreshList={refreshList} notify={notify} onOpen={onOpen} />
        ))}
      </div>
      {children}
    </main>
  );
}
