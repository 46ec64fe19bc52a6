/** The session list as a lineage tree: each fork under its parent, labelled with its cut. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { lineageForest, sessionLabel, type LineageNode } from './lineage-tree.js';
import { CURRENT_FORMAT_VERSION, type SessionRow } from './wire.js';

type Props = { sessions: readonly SessionRow[]; currentId: string | undefined; onOpen: (id: string) => void };

function Node({ node, currentId, onOpen, byId }: { node: LineageNode; byId: ReadonlyMap<string, SessionRow> } & Omit<Props, 'sessions'>) {
  const { session } = node;
  const label = sessionLabel(session, byId);
  const current = session.id === currentId;
  return (
    <li>
      <a
        href={`#/s/${encodeURIComponent(session.id)}`}
        class={current ? 'session current' : 'session'}
        aria-current={current ? 'page' : undefined}
        onClick={(event) => {
          event.preventDefault();
          onOpen(session.id);
        }}
      >
        <span class="session-title">{label}</span>
        <span class="session-meta">
          {label !== session.id && <span class="session-id">{session.id}</span>}
          {session.forkCut !== undefined && <span class="cut">cut @ {session.forkCut}</span>}
          {session.formatVersion !== CURRENT_FORMAT_VERSION && <span class="badge">V{session.formatVersion}</span>}
          {session.status === 'needs-repair' && <span class="badge warn">crashed</span>}
          {session.status === 'running' ? <span class="badge live">running</span> : session.live && <span class="badge live">live</span>}
        </span>
      </a>
      {node.children.length > 0 && (
        <ul aria-label={`Forks of ${label}`}>
          {node.children.map((child) => (
            <Node key={child.session.id} node={child} currentId={currentId} onOpen={onOpen} byId={byId} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** At or below this width the list folds behind its toggle, so the chat is what a phone shows first. */
const NARROW = '(max-width: 700px)';

/**
 * A navigation landmark “Sessions” holding the lineage forest, then `children`. The list is folded
 * on a narrow window and shown on a wide one, following resizes; on a narrow window picking a
 * session folds it again.
 */
export function SessionList({ sessions, currentId, onOpen, children }: Props & { children?: ComponentChildren }) {
  const forest = lineageForest(sessions);
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const [open, setOpen] = useState(() => !window.matchMedia(NARROW).matches);
  useEffect(() => {
    const narrow = window.matchMedia(NARROW);
    const follow = () => {
      setOpen(!narrow.matches);
    };
    narrow.addEventListener('change', follow);
    return () => {
      narrow.removeEventListener('change', follow);
    };
  }, []);
  const pick = useCallback(
    (id: string) => {
      if (window.matchMedia(NARROW).matches) setOpen(false);
      onOpen(id);
    },
    [onOpen],
  );
  return (
    <nav class="sessions" aria-label="Sessions">
      <details
        open={open}
        onToggle={(event) => {
          setOpen(event.currentTarget.open);
        }}
      >
        <summary>
          <h2>Sessions ({sessions.length})</h2>
        </summary>
        {forest.length === 0 ? (
          <p>No sessions yet.</p>
        ) : (
          <ul class="lineage">
            {forest.map((node) => (
              <Node key={node.session.id} node={node} currentId={currentId} onOpen={pick} byId={byId} />
            ))}
          </ul>
        )}
      </details>
      {children}
    </nav>
  );
}
